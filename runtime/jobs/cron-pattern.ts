/**
 * Cron patterns (docs/jobs.md "Scheduled tasks"): five fields in UTC,
 * minute hour day-of-month month day-of-week, with lists, ranges and steps
 * (`0 3 * * *`, `*\/15 * * * *`). The grammar is graphile-worker's: its
 * parser is pure JavaScript and touches no database, so a pattern reads the
 * same whichever queue backend runs the cron.
 */
import { parseCronPattern } from './graphile/cron.js';

/**
 * Check a pattern.
 * @throws {Error} the parser's, naming what is wrong (`Too large value '61' in …`).
 */
export function checkCronPattern(pattern: string): void {
  parseCronPattern(pattern);
}

/**
 * Whether a pattern matches a minute.
 * @returns a function of a time, true when the minute it falls in (UTC) matches.
 * @throws {Error} the parser's, for a bad pattern.
 * @example cronMatcher('0 3 * * *')(new Date('2025-01-02T03:00:00Z')) // true
 */
export function cronMatcher(pattern: string): (at: Date) => boolean {
  const item = parseCronPattern(pattern);
  return (d) =>
    item.match({ min: d.getUTCMinutes(), hour: d.getUTCHours(), date: d.getUTCDate(), month: d.getUTCMonth() + 1, dow: d.getUTCDay() });
}
