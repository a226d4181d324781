/**
 * The engine-neutral parts of worker heartbeats (docs/jobs.md "When a worker
 * dies"): `lock_ids` as each engine keeps a list — a native array where the
 * engine has arrays (PostgreSQL's `text[]`), JSON text elsewhere, read back
 * either way — and a missing heartbeat table told apart by the error's kind
 * (not an engine's error code): one warning, and the worker goes on.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueLocks } from '../../../runtime/jobs/backend.js';
import { decodeLockIds, encodeLockIds, WorkerHeartbeat } from '../../../runtime/jobs/worker-heartbeat.js';
import { connectDatabase, type Database } from '../../../runtime/db/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { waitFor } from './wait-for.js';

describe('worker heartbeat | lock IDs by engine', () => {
  it('stays an array where the engine has arrays, and is JSON text where it has none', () => {
    expect(encodeLockIds(['pool-1', 'worker-2'], true)).toEqual(['pool-1', 'worker-2']);
    expect(encodeLockIds(['pool-1', 'worker-2'], false)).toBe('["pool-1","worker-2"]');
    expect(encodeLockIds([], false)).toBe('[]');
  });

  it('reads back what either wrote', () => {
    for (const arrays of [true, false]) expect(decodeLockIds(encodeLockIds(['pool-1', 'x'], arrays))).toEqual(['pool-1', 'x']);
    expect(decodeLockIds('{"not":"a list"}')).toEqual([]);
  });
});

describe('worker heartbeat | before "bindery migrate" made its table', () => {
  let testDb: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    testDb = await createTestDatabase('heartbeat_engine');
    database = await connectDatabase({ url: testDb.url, max: 2 });
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  it('warns once that the table is missing, keeps beating, and stops cleanly', async () => {
    const warnings: string[] = [];
    const log = { warn: (...args: unknown[]) => warnings.push(String(args.at(-1))), error: () => {}, debug: () => {} };
    const locks: QueueLocks = { backend: 'test', lockIds: () => ['pool-x'], release: async () => [] };
    const heartbeat = new WorkerHeartbeat({
      db: database.db as Kysely<Record<string, never>>,
      engine: database.engine,
      log: log as never,
      timings: { intervalMs: 50, deadAfterMs: 150 },
    });
    heartbeat.start(locks);
    await heartbeat.ready;
    await new Promise((resolve) => setTimeout(resolve, 200)); // a few more beats, each failing the same way
    await waitFor(() => warnings.length > 0, 'the warning');
    expect(warnings).toEqual([expect.stringMatching(/^the table jobs_worker_heartbeats does not exist: run "bindery migrate"/)]);
    await heartbeat.stop({ remove: true });
  });
});
