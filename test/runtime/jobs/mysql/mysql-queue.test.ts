/**
 * Jobs on the MySQL queue, on the run's throwaway MariaDB (docs/jobs.md
 * "Queue backends"): queued in the caller's transaction (a rollback queues
 * nothing), retried with graphile-worker's backoff under one idempotency
 * key, kept as failed jobs and retried through the backend, replaced by
 * `jobKey`, held until `runAt`, claimed by priority and one at a time per
 * queue name — through the jobs runtime `jobs()` makes, with a real worker.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../../runtime/db/connect.js';
import { UnknownJobError } from '../../../../runtime/jobs/errors.js';
import { defineJob, listFailedJobs, retryJob, type JobContext, type RunningWorker } from '../../../../runtime/jobs/index.js';
import { jobEffectKey } from '../../../../runtime/jobs/job-run.js';
import type { JobsRuntime } from '../../../../runtime/jobs/jobs-runtime.js';
import { claimJob, completeJob } from '../../../../runtime/jobs/mysql/claim.js';
import { mysqlBackend } from '../../../../runtime/jobs/mysql/mysql-backend.js';
import { queueBackendFor, queueBackendOf } from '../../../../runtime/jobs/select-backend.js';
import { waitFor } from '../wait-for.js';
import { captureLog, jobsRuntimeOn, openQueueDatabase } from './queue-database.js';

interface Ran {
  readonly marker: string;
  readonly id: string;
  readonly attempt: number;
  readonly key: string;
  readonly effectKey: string | undefined;
  readonly at: number;
}
const ran: Ran[] = [];
const failuresLeft = new Map<string, number>();
const release = new Set<string>();

function record(marker: string, ctx: JobContext): void {
  ran.push({
    marker,
    id: ctx.job.id,
    attempt: ctx.job.attempt,
    key: ctx.job.idempotencyKey,
    effectKey: jobEffectKey('mail', marker),
    at: Date.now(),
  });
  const left = failuresLeft.get(marker) ?? 0;
  if (left > 0) {
    failuresLeft.set(marker, left - 1);
    throw new Error(`failure of ${marker}`);
  }
}

const note = defineJob<{ marker: string }>({ name: 'test:note', handle: ({ marker }, ctx) => record(marker, ctx) });
const flaky = defineJob<{ marker: string }>({ name: 'test:flaky', maxAttempts: 3, handle: ({ marker }, ctx) => record(marker, ctx) });
const doomed = defineJob<{ marker: string }>({ name: 'test:doomed', maxAttempts: 1, handle: ({ marker }, ctx) => record(marker, ctx) });
/** Runs until the test releases its marker. */
const hold = defineJob<{ marker: string }>({
  name: 'test:hold',
  async handle({ marker }, ctx) {
    record(marker, ctx);
    await waitFor(() => release.has(marker), `the release of ${marker}`, 20_000);
  },
});
/** Never run by the worker (not registered): the claim's order is read with claimJob. */
const UNRUN = 'test:unrun';

let close: () => Promise<void>;
let database: Database;
let runtime: JobsRuntime;
let worker: RunningWorker;

beforeAll(async () => {
  ({ database, close } = await openQueueDatabase('mysql_queue'));
  runtime = jobsRuntimeOn(database, [note, flaky, doomed, hold], { log: captureLog().log, concurrency: 3 });
  worker = await runtime.startWorker();
});
afterAll(async () => {
  await worker?.stop();
  await close?.();
});
beforeEach(() => {
  ran.length = 0;
});

const ranWith = (marker: string) => ran.filter((r) => r.marker === marker);
const count = async (task: string, db = database.db) =>
  Number((await sql<{ n: number }>`SELECT COUNT(*) AS n FROM jobs_queue WHERE task = ${task}`.execute(db)).rows[0]!.n);
const row = async (id: string) =>
  (
    await sql<{
      attempts: number;
      max_attempts: number;
      last_error: string | null;
      run_at: Date;
      revision: number;
      payload: { payload: { marker: string } };
      job_key: string | null;
    }>`SELECT attempts, max_attempts, last_error, run_at, revision, payload, job_key FROM jobs_queue WHERE id = ${Number(id)}`.execute(
      database.db,
    )
  ).rows[0];
const queueRaw = (task: string, options: { priority?: number; queueName?: string } = {}) =>
  mysqlBackend.enqueue(database.db, { name: task, payload: '{}', ...options });

describe('MySQL queue | chosen for MySQL and MariaDB', () => {
  it('is the backend of both engines, and of a MySQL Kysely instance bindery did not record', async () => {
    expect(queueBackendFor({ name: 'mariadb' })).toBe(mysqlBackend);
    expect(queueBackendFor({ name: 'mysql' })).toBe(mysqlBackend);
    expect(runtime.backend.name).toBe('mysql-queue');
    await database.db.transaction().execute(async (tx) => {
      expect(queueBackendOf(tx).backend).toBe(mysqlBackend);
    });
  });
});

describe('MySQL queue | transactions', () => {
  it('a job queued in a transaction that rolls back is never queued and never runs', async () => {
    await expect(
      database.db.transaction().execute(async (tx) => {
        await runtime.queue.add(note, { marker: 'rolled-back' }, { tx });
        expect(await count('test:note', tx)).toBe(1); // visible inside the transaction
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await count('test:note')).toBe(0);
    // A job queued after it runs; by then the rolled-back one would have run too.
    await runtime.queue.add(note, { marker: 'sentinel' });
    await waitFor(() => ranWith('sentinel').length === 1, 'the sentinel job to run');
    expect(ranWith('rolled-back')).toEqual([]);
  });

  it('a job queued in a transaction runs once the transaction commits', async () => {
    const queued = await database.db.transaction().execute((tx) => runtime.queue.add(note, { marker: 'committed' }, { tx }));
    expect(queued).toEqual({ id: expect.stringMatching(/^\d+$/), name: 'test:note' });
    await waitFor(() => ranWith('committed').length === 1, 'the committed job to run');
    expect(ranWith('committed')[0]).toMatchObject({ id: queued.id, attempt: 1, key: `mysql-queue:${queued.id}:0` });
    await waitFor(async () => (await row(queued.id)) === undefined, 'the succeeded job to be removed');
  });
});

describe('MySQL queue | retries and failed jobs', () => {
  it('retries after the backoff, counting attempts, under the same idempotency key', async () => {
    failuresLeft.set('flaky', 1);
    const queued = await runtime.queue.add(flaky, { marker: 'flaky' });
    await waitFor(async () => (await row(queued.id))?.last_error != null, 'the first attempt to fail');
    const failed = (await row(queued.id))!;
    expect(failed).toMatchObject({ attempts: 1, max_attempts: 3 });
    expect(failed.last_error).toMatch(/^Error: failure of flaky\n\s+at /);
    // graphile-worker's backoff: the next attempt waits e^1 ≈ 2.7 s.
    expect(new Date(failed.run_at).getTime() - Date.now()).toBeGreaterThan(1500);
    await waitFor(() => ranWith('flaky').length === 2, 'the retry', 10_000);
    const [first, second] = ranWith('flaky');
    expect([first!.attempt, second!.attempt]).toEqual([1, 2]);
    expect(second!.at - first!.at).toBeGreaterThan(2000);
    // One key for every run of the job, and the keys of its effects with it (the mailer's).
    expect(second!.key).toBe(`mysql-queue:${queued.id}:0`);
    expect(second!.key).toBe(first!.key);
    expect(second!.effectKey).toBe(first!.effectKey);
    expect(first!.effectKey).toMatch(new RegExp(`^mysql-queue:${queued.id}:0:mail:[\\w-]{22}:1$`));
    await waitFor(async () => (await row(queued.id)) === undefined, 'the succeeded job to be removed');
  });

  it('keeps a job whose attempts ran out, with its error, lists it and retries it through the backend', async () => {
    failuresLeft.set('doomed', 1);
    const queued = await runtime.queue.add(doomed, { marker: 'doomed' });
    await waitFor(async () => (await listFailedJobs(database.db)).some((j) => j.id === queued.id), 'the job to be listed as failed');
    const failed = (await listFailedJobs(database)).find((j) => j.id === queued.id)!;
    expect(failed).toMatchObject({ name: 'test:doomed', attempts: 1, maxAttempts: 1, permanent: true });
    expect(failed.lastError).toMatch(/^Error: failure of doomed/);
    expect(await mysqlBackend.counts(database.db)).toMatchObject({ failed: 1, running: 0 });

    await expect(retryJob(database.db, '999999999')).rejects.toThrow(UnknownJobError);
    expect(await retryJob(database, queued.id)).toEqual({ id: queued.id, name: 'test:doomed' });
    await waitFor(() => ranWith('doomed').length === 2, 'the retried job to run', 10_000);
    expect(ranWith('doomed').map((r) => r.key)).toEqual([`mysql-queue:${queued.id}:0`, `mysql-queue:${queued.id}:0`]);
    await waitFor(async () => (await row(queued.id)) === undefined, 'the retried job to succeed');
    expect(await listFailedJobs(database.db)).toEqual([]);
  });
});

describe('MySQL queue | jobKey, runAt, priority, queue names', () => {
  it('queuing again with a jobKey replaces the waiting job: one row, the last payload, a new revision and key', async () => {
    const later = new Date(Date.now() + 3_600_000);
    const a = await runtime.queue.add(note, { marker: 'key-a' }, { jobKey: 'k1', runAt: later });
    const b = await runtime.queue.add(note, { marker: 'key-b' }, { jobKey: 'k1', runAt: later });
    expect(b.id).toBe(a.id);
    expect(await row(a.id)).toMatchObject({ revision: 1, attempts: 0, job_key: 'k1', payload: { payload: { marker: 'key-b' } } });
    expect(await mysqlBackend.counts(database.db)).toMatchObject({ waiting: 1 });
    const pending = await mysqlBackend.pendingJobs(database.db, 10);
    expect(pending).toEqual([expect.objectContaining({ id: a.id, name: 'test:note', running: false, attempts: 0 })]);
    // Replaced once more without runAt: due now.
    const c = await runtime.queue.add(note, { marker: 'key-c' }, { jobKey: 'k1' });
    expect(c.id).toBe(a.id);
    await waitFor(() => ranWith('key-c').length === 1, 'the replaced job to run');
    expect([...ranWith('key-a'), ...ranWith('key-b')]).toEqual([]);
    expect(ranWith('key-c')[0]!.key).toBe(`mysql-queue:${a.id}:2`);
  });

  it('a running job keeps running without further attempts, and the key goes to a new job', async () => {
    const first = await runtime.queue.add(hold, { marker: 'hold-1' }, { jobKey: 'k2' });
    await waitFor(() => ranWith('hold-1').length === 1, 'the first job to start');
    const second = await runtime.queue.add(hold, { marker: 'hold-2' }, { jobKey: 'k2' });
    expect(second.id).not.toBe(first.id);
    expect(await row(first.id)).toMatchObject({ job_key: null, attempts: 25, max_attempts: 25 });
    await waitFor(() => ranWith('hold-2').length === 1, 'the new job to start');
    release.add('hold-1').add('hold-2');
    await waitFor(async () => (await count('test:hold')) === 0, 'both to finish');
    expect(ran.map((r) => r.marker).sort()).toEqual(['hold-1', 'hold-2']);
  });

  it('a job queued with runAt waits until then', async () => {
    const runAt = new Date(Date.now() + 1500);
    await runtime.queue.add(note, { marker: 'later' }, { runAt });
    expect(await mysqlBackend.counts(database.db)).toMatchObject({ waiting: 1, queued: 0 });
    await waitFor(() => ranWith('later').length === 1, 'the job to run at its time', 10_000);
    expect(ranWith('later')[0]!.at).toBeGreaterThanOrEqual(runAt.getTime());
  });
});

describe('MySQL queue | a dead worker', () => {
  it("the heartbeat unlocks a dead worker's jobs and queue: one with attempts left runs again, one on its last fails", async () => {
    const orphan = await runtime.queue.add(note, { marker: 'orphan' }, { runAt: new Date(Date.now() + 3_600_000) });
    const last = await runtime.queue.add(doomed, { marker: 'last' }, { runAt: new Date(Date.now() + 3_600_000), queueName: 'dead-q' });
    await sql`UPDATE jobs_queue SET locked_by = 'mysql-dead', locked_at = CURRENT_TIMESTAMP(6), attempts = 1, run_at = CURRENT_TIMESTAMP(6) WHERE id IN (${Number(orphan.id)}, ${Number(last.id)})`.execute(
      database.db,
    );
    await sql`INSERT INTO jobs_queue_locks (queue_name, locked_by, locked_at) VALUES ('dead-q', 'mysql-dead', CURRENT_TIMESTAMP(6))`.execute(
      database.db,
    );
    await sql`INSERT INTO jobs_worker_heartbeats (id, backend, lock_ids, host, pid, seen_at) VALUES ('worker-dead', 'mysql-queue', '["mysql-dead"]', 'gone', 1, CURRENT_TIMESTAMP(6) - INTERVAL 1 MINUTE)`.execute(
      database.db,
    );
    // A row of another backend is left to that backend's workers.
    await sql`INSERT INTO jobs_worker_heartbeats (id, backend, lock_ids, host, pid, seen_at) VALUES ('worker-other', 'graphile-worker', '["pool-x"]', 'gone', 2, CURRENT_TIMESTAMP(6) - INTERVAL 1 MINUTE)`.execute(
      database.db,
    );
    await waitFor(() => ranWith('orphan').length === 1, 'the orphaned job to run again', 10_000);
    expect(ranWith('orphan')[0]).toMatchObject({ attempt: 2, key: `mysql-queue:${orphan.id}:0` });
    const failed = (await listFailedJobs(database.db)).find((j) => j.id === last.id);
    expect(failed).toMatchObject({ attempts: 1, maxAttempts: 1, permanent: true });
    expect(failed!.lastError).toMatch(/^Error: the worker running it \(gone, pid 1\) stopped: no heartbeat since \d{4}-/);
    expect(ranWith('last')).toEqual([]);
    const queueLock = await sql<{ locked_by: string | null }>`SELECT locked_by FROM jobs_queue_locks WHERE queue_name = 'dead-q'`.execute(
      database.db,
    );
    expect(queueLock.rows).toEqual([{ locked_by: null }]);
    const rows = await sql<{ id: string; lock_ids: unknown }>`SELECT id, lock_ids FROM jobs_worker_heartbeats ORDER BY id`.execute(
      database.db,
    );
    expect(rows.rows.map((r) => r.id)).toEqual([expect.stringMatching(/^worker-[0-9a-f]{16}$/), 'worker-other']);
    expect(rows.rows[0]!.lock_ids).toEqual([expect.stringMatching(/^mysql-[0-9a-f]{18}$/)]);
  });
});

describe("MySQL queue | the claim's order, read with claimJob", () => {
  // The worker is stopped (these run last): its own claims lock rows for a moment, and a claim here would skip them.
  beforeAll(async () => {
    await worker.stop();
  });

  it('the claim takes the lowest priority first, then the oldest', async () => {
    const ids = [await queueRaw(UNRUN, { priority: 5 }), await queueRaw(UNRUN, { priority: 0 }), await queueRaw(UNRUN, { priority: 5 })];
    const order: string[] = [];
    for (;;) {
      const job = await claimJob(database.db, 'mysql-test', [UNRUN]);
      if (job === undefined) break;
      order.push(String(job.id));
      await completeJob(database.db, job, 'mysql-test');
    }
    expect(order).toEqual([ids[1], ids[0], ids[2]]);
  });

  it('jobs of one queue name run one at a time: a claim skips a queue another worker holds', async () => {
    const [one, two, free] = [
      await queueRaw(UNRUN, { queueName: 'serial' }),
      await queueRaw(UNRUN, { queueName: 'serial' }),
      await queueRaw(UNRUN),
    ];
    // Two workers claiming at the same moment: the queue goes to one of them.
    const [a, b] = await Promise.all([claimJob(database.db, 'mysql-a', [UNRUN]), claimJob(database.db, 'mysql-b', [UNRUN])]);
    expect([String(a!.id), String(b!.id)].sort()).toEqual([one, free].sort());
    expect(await claimJob(database.db, 'mysql-b', [UNRUN])).toBeUndefined(); // "two" waits for its queue
    const holder = String(a!.id) === one ? a! : b!;
    await completeJob(database.db, holder, holder === a ? 'mysql-a' : 'mysql-b');
    const next = await claimJob(database.db, 'mysql-b', [UNRUN]);
    expect(String(next!.id)).toBe(two);
    await completeJob(database.db, next!, 'mysql-b');
    await completeJob(database.db, holder === a ? b! : a!, holder === a ? 'mysql-b' : 'mysql-a');
    expect(await count(UNRUN)).toBe(0);
  });
});
