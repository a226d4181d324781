/**
 * The job run the current code belongs to, and the keys of its side effects
 * (docs/jobs.md "At least once").
 *
 * A job runs at least once: again after a failed attempt, and again when its
 * worker died before the queue recorded it as done (docs/jobs.md "When a
 * worker dies"). Every run of one job has the same idempotency key
 * (`ctx.job.idempotencyKey`), made by the queue backend from the job's
 * identity (graphile-worker's is `graphile-worker:<id>:<revision>`,
 * graphile/worker.ts; the MySQL queue's `mysql-queue:<id>:<revision>`,
 * mysql/worker.ts). Framework code that has a side effect (the mailer)
 * asks {@link jobEffectKey} for a key of that effect, so a rerun recognises
 * what an earlier run already did; outside a job run there is none.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';

interface JobRunState {
  readonly idempotencyKey: string;
  /** Effects made so far in this run, by kind and identity. */
  readonly counts: Map<string, number>;
}

const runs = new AsyncLocalStorage<JobRunState>();

/** Run `work` as (part of) the run of the job whose idempotency key this is. @internal The jobs runtime. */
export function runAsJob<T>(idempotencyKey: string, work: () => T): T {
  return runs.run({ idempotencyKey, counts: new Map() }, work);
}

/**
 * A key for one side effect of the running job, the same on each of its runs:
 * `<job's key>:<kind>:<hash of identity>:<n>`, where `n` counts the effects of
 * that kind and identity made earlier in this run (from 1), so a job sending
 * two equal mails has two keys. The identity is hashed (SHA-256): it may hold
 * addresses, the key does not.
 *
 * @param kind what the effect is, e.g. `mail`.
 * @param identity what tells this effect from the job's others, stable across runs (recipients and subject, not a fresh link).
 * @returns the key, or `undefined` when no job is running in this async context.
 * @example const key = jobEffectKey('mail', JSON.stringify([to, subject])); // 'graphile-worker:17:0:mail:3q2…:1'
 */
export function jobEffectKey(kind: string, identity: string): string | undefined {
  const run = runs.getStore();
  if (run === undefined) return undefined;
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 22);
  const slot = `${kind}:${hash}`;
  const n = (run.counts.get(slot) ?? 0) + 1;
  run.counts.set(slot, n);
  return `${run.idempotencyKey}:${slot}:${n}`;
}
