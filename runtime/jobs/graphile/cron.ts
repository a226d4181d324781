/**
 * graphile-worker's cron: its pattern parser (pure JavaScript, no database:
 * what ../cron-pattern.ts reads every pattern with) and bindery's cron items
 * as its `CronItem`s.
 */
import { parseCronItems, type CronItem, type ParsedCronItem } from 'graphile-worker';
import type { CronSchedule } from '../backend.js';

/**
 * graphile-worker's parse of a five-field pattern.
 * @throws {Error} graphile-worker's, for a bad pattern.
 */
export function parseCronPattern(pattern: string): ParsedCronItem {
  return parseCronItems([{ task: 'pattern', match: pattern, identifier: 'pattern' }])[0]!;
}

/** A cron item as graphile-worker's `run({ parsedCronItems })` takes it; its identifier is the task's name. */
export function graphileCronItem(item: CronSchedule): CronItem {
  return {
    task: item.task,
    identifier: item.task,
    match: item.pattern,
    options: {
      backfillPeriod: item.backfillMs,
      ...(item.maxAttempts !== undefined ? { maxAttempts: item.maxAttempts } : {}),
      ...(item.queueName !== undefined ? { queueName: item.queueName } : {}),
      ...(item.priority !== undefined ? { priority: item.priority } : {}),
    },
  };
}
