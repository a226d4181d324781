/**
 * The queue backend is chosen by the database engine (docs/jobs.md "Queue
 * backends"): graphile-worker on PostgreSQL, the MySQL queue on MySQL and
 * MariaDB; an engine without a backend is refused with a coded error naming
 * it — by the chooser, by the jobs runtime `jobs()` makes at boot, and by the
 * failed-jobs functions given a `Database`. That the failed-jobs functions
 * read through the backend of the database they are given is in
 * failed-jobs.postgres.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../runtime/db/connect.js';
import type { EngineName } from '../../../runtime/db/engine.js';
import { JobsEngineUnsupportedError } from '../../../runtime/jobs/errors.js';
import { graphileBackend } from '../../../runtime/jobs/graphile/graphile-backend.js';
import { mysqlBackend } from '../../../runtime/jobs/mysql/mysql-backend.js';
import { JobsRuntime } from '../../../runtime/jobs/jobs-runtime.js';
import { queueBackendFor } from '../../../runtime/jobs/select-backend.js';

const refusal = (engine: string) =>
  expect.objectContaining({
    code: 'BINDERY_JOBS_ENGINE_UNSUPPORTED',
    message: expect.stringContaining(`no backend for the database engine "${engine}"`),
  });

describe('Queue backend | chosen by the database engine', () => {
  it('is graphile-worker on PostgreSQL', () => {
    const backend = queueBackendFor({ name: 'postgres' });
    expect(backend).toBe(graphileBackend);
    expect(backend.name).toBe('graphile-worker');
  });

  it('is the MySQL queue on MySQL and MariaDB', () => {
    for (const name of ['mysql', 'mariadb'] as const) expect(queueBackendFor({ name })).toBe(mysqlBackend);
    expect(mysqlBackend.name).toBe('mysql-queue');
  });

  for (const name of ['sqlite', 'oracle'] as const)
    it(`refuses ${name}, naming it (BINDERY_JOBS_ENGINE_UNSUPPORTED)`, () => {
      expect(() => queueBackendFor({ name: name as EngineName })).toThrow(JobsEngineUnsupportedError);
      expect(() => queueBackendFor({ name: name as EngineName })).toThrow(refusal(name));
    });

  it('stops the jobs runtime of an app whose engine has none', () => {
    const database = { db: {}, engine: { name: 'sqlite' } } as unknown as Database;
    const make = () =>
      new JobsRuntime({
        database,
        log: {} as never,
        services: {} as never,
        appName: 'x',
        concurrency: 1,
        pollIntervalMs: 1000,
        heartbeatIntervalMs: 1000,
        deadAfterMs: 3000,
      });
    expect(make).toThrow(refusal('sqlite'));
  });
});
