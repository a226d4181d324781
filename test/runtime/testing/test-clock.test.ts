/** testClock (bindery/testing): stands still, moves only when told, refuses to go backwards by advance. */
import { describe, expect, it } from 'vitest';
import { testClock } from 'bindery/testing';

describe('testClock', () => {
  it('stands still until advanced or set', () => {
    const clock = testClock(new Date('2030-01-01T00:00:00Z'));
    const { now } = clock;
    expect(now()).toBe(Date.UTC(2030, 0, 1));
    clock.advance(61_000);
    expect(now()).toBe(Date.UTC(2030, 0, 1, 0, 1, 1));
    clock.set(5);
    expect(now()).toBe(5);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(now()).toBe(5);
  });
});
