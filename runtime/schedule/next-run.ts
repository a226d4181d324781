/**
 * When a cron pattern fires next (for `bindery schedule:list`), with
 * graphile-worker's own matcher.
 */
import { parseCronItems } from 'graphile-worker';

const MINUTE = 60_000;

/**
 * The first minute after `from` (UTC) that `cron` matches, or `undefined` when none within a year and a day.
 * @example nextRun('0 3 * * *', new Date('2025-01-01T12:00:00Z')) // 2025-01-02T03:00:00.000Z
 */
export function nextRun(cron: string, from: Date = new Date()): Date | undefined {
  const [item] = parseCronItems([{ task: 'next-run', match: cron, identifier: 'next-run' }]);
  let ts = Math.floor(from.getTime() / MINUTE) * MINUTE + MINUTE;
  const limit = ts + 367 * 24 * 60 * MINUTE;
  for (; ts < limit; ts += MINUTE) {
    const d = new Date(ts);
    if (
      item!.match({ min: d.getUTCMinutes(), hour: d.getUTCHours(), date: d.getUTCDate(), month: d.getUTCMonth() + 1, dow: d.getUTCDay() })
    )
      return d;
  }
  return undefined;
}
