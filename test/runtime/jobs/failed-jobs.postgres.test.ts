/**
 * The failed-jobs functions read through the backend of the database they
 * are given (docs/jobs.md "Queue backends"), here graphile-worker's on
 * PostgreSQL; a database of an engine without a backend is refused. The
 * choice of backend by engine is in select-backend.test.ts.
 */
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../runtime/app/index.js';
import type { EngineName } from '../../../runtime/db/engine.js';
import { UnknownJobError } from '../../../runtime/jobs/errors.js';
import { graphileBackend } from '../../../runtime/jobs/graphile/graphile-backend.js';
import { defineJob, jobs, listFailedJobs, retryJob } from '../../../runtime/jobs/index.js';
import { jobsRuntimeOf } from '../../../runtime/jobs/jobs-runtime.js';
import { queueBackendOf } from '../../../runtime/jobs/select-backend.js';
import { createTestPostgresDatabase, type TestDatabase } from '../../support/database.js';

const refusal = (engine: string) =>
  expect.objectContaining({
    code: 'BINDERY_JOBS_ENGINE_UNSUPPORTED',
    message: expect.stringContaining(`no backend for the database engine "${engine}"`),
  });

const failing = defineJob<Record<string, never>>({ name: 'test:failing', maxAttempts: 1, handle() {} });

describe('Queue backend | the failed-jobs functions read through the backend of their database', () => {
  let database: TestDatabase;
  let t: TestApp;
  let failedId: string;
  beforeAll(async () => {
    database = await createTestPostgresDatabase('failed_jobs');
    t = await createTestApp(
      defineApp({
        name: 'select_backend_test',
        root: fileURLToPath(new URL('.', import.meta.url)),
        routes: [],
        handlers: {},
        migrations: [],
        setup: [jobs({ jobs: [failing] })],
      }),
      { databaseUrl: database.url },
    );
    // A job whose one attempt failed (no worker runs in this file).
    const { rows } = await sql<{
      id: string;
    }>`select id::text as id from graphile_worker.permanently_fail_jobs(array[(select id from graphile_worker.add_job('test:failing', '{}'::json, max_attempts => 1))], 'Error: the disk is full')`.execute(
      t.db,
    );
    failedId = rows[0]!.id;
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it("the app's database (services.db) goes to its app's backend; a Database by its engine", async () => {
    expect(queueBackendOf(t.db).backend).toBe(jobsRuntimeOf(t.running.services)!.backend);
    const running = t.running.database;
    expect(queueBackendOf(running)).toEqual({ backend: graphileBackend, db: running.db });
    const viaDatabase = await listFailedJobs(running);
    expect(viaDatabase).toEqual([
      expect.objectContaining({ id: failedId, name: 'test:failing', attempts: 1, maxAttempts: 1, permanent: true }),
    ]);
    expect(viaDatabase[0]!.lastError).toBe('Error: the disk is full');
    expect(await listFailedJobs(t.db)).toEqual(viaDatabase);
  });

  it('a Database of an engine without a backend is refused', async () => {
    const other = { db: t.db, engine: { name: 'sqlite' as EngineName } };
    await expect(listFailedJobs(other)).rejects.toThrow(refusal('sqlite'));
    await expect(retryJob(other, failedId)).rejects.toThrow(refusal('sqlite'));
  });

  it('retries through the backend, and names an unknown ID', async () => {
    await expect(retryJob(t.running.database, '999999999')).rejects.toThrow(UnknownJobError);
    expect(await retryJob(t.running.database, failedId)).toEqual({ id: failedId, name: 'test:failing' });
    // Due again with its attempts counted from zero; its last error stays until an attempt succeeds.
    expect(await listFailedJobs(t.db)).toEqual([expect.objectContaining({ id: failedId, attempts: 0, permanent: false })]);
  });
});
