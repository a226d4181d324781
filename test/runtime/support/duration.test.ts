import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../../runtime/support/duration.js';

describe('parseDuration | Go-style and ISO 8601 text to milliseconds', () => {
  it.each([
    ['90s', 90_000],
    ['1h30m', 5_400_000],
    ['1.5h', 5_400_000],
    ['250ms', 250],
    ['-5m', -300_000],
    ['720h', 2_592_000_000],
    ['0', 0],
    ['PT1H30M', 5_400_000],
    ['P1DT12H', 129_600_000],
    ['PT0.5S', 500],
    ['1us', 0.001],
  ])('%s → %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '30', 'abc', '1x', 'h', 'P', 'PT', '1h 30m', '--1s'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('formats back to the short form', () => {
    expect(formatDuration(5_400_000)).toBe('1h30m');
    expect(formatDuration(7_200_000)).toBe('2h');
    expect(formatDuration(250)).toBe('250ms');
  });
});
