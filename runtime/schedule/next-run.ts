/**
 * When a cron pattern fires next (for `bindery schedule:list`), with the
 * cron's own matcher (runtime/jobs/cron-pattern.ts).
 */
import { cronMatcher } from '../jobs/cron-pattern.js';

const MINUTE = 60_000;

/**
 * The first minute after `from` (UTC) that `cron` matches, or `undefined` when none within a year and a day.
 * @example nextRun('0 3 * * *', new Date('2025-01-01T12:00:00Z')) // 2025-01-02T03:00:00.000Z
 */
export function nextRun(cron: string, from: Date = new Date()): Date | undefined {
  const matches = cronMatcher(cron);
  let ts = Math.floor(from.getTime() / MINUTE) * MINUTE + MINUTE;
  const limit = ts + 367 * 24 * 60 * MINUTE;
  for (; ts < limit; ts += MINUTE) {
    const d = new Date(ts);
    if (matches(d)) return d;
  }
  return undefined;
}
