/**
 * Per-address lanes of password checks: one key never runs more than its
 * width at once, waits beyond `maxWaiting` are refused, other keys are not
 * held up, and idle keys are forgotten.
 */
import { describe, expect, it } from 'vitest';
import { AddressLanes, LANE_FULL } from '../../../runtime/auth/address-lanes.js';

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => {
    open = r;
  });
  return { promise, open };
}

describe('AddressLanes', () => {
  it('runs one task per key at a time, refuses beyond maxWaiting, and lets another key through at once', async () => {
    const lanes = new AddressLanes(1, 2);
    const g = gate();
    let running = 0;
    let peak = 0;
    const task = async () => {
      running++;
      peak = Math.max(peak, running);
      await g.promise;
      running--;
      return 'done';
    };
    const flood = [lanes.run('a', task), lanes.run('a', task), lanes.run('a', task)];
    expect(await lanes.run('a', task)).toBe(LANE_FULL);
    expect(await lanes.run('b', async () => 'other')).toBe('other');
    g.open();
    expect(await Promise.all(flood)).toEqual(['done', 'done', 'done']);
    expect(peak).toBe(1);
    expect(lanes.activeKeys).toBe(0);
  });

  it('a failing task frees its slot', async () => {
    const lanes = new AddressLanes(1, 5);
    await expect(
      lanes.run('a', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await lanes.run('a', async () => 1)).toBe(1);
    expect(lanes.activeKeys).toBe(0);
  });

  it('refuses a width under 1', () => {
    expect(() => new AddressLanes(0, 1)).toThrow(RangeError);
  });
});
