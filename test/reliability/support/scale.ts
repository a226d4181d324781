/**
 * Sizes of the reliability suite: CI size by default, full size under
 * `npm run test:stress` (vitest `--mode stress`, or `RELIABILITY_SCALE=full`),
 * or any factor (`RELIABILITY_SCALE=3` triples the CI counts).
 * docs/reliability.md.
 */

const raw = process.env.RELIABILITY_SCALE ?? '';

/** True at full (stress) size. */
export const FULL = raw === 'full' || (import.meta as unknown as { env?: { MODE?: string } }).env?.MODE === 'stress';

const factor = FULL ? 1 : raw === '' ? 1 : Math.max(1, Number(raw) || 1);

/**
 * A count for this run: `ci` by default (times the factor), `full` under stress.
 * @example size(200, 10_000) // 200 in CI, 10000 with RELIABILITY_SCALE=full
 */
export function size(ci: number, full: number): number {
  return FULL ? full : Math.round(ci * factor);
}
