/**
 * The app logger (docs/observability.md "Logs"): JSON lines or readable
 * ones by LOG_FORMAT, and errors written by what they say, never by what
 * they hold (a pg client hangs off the error of an idle connection).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../runtime/app/logger.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

/** A logger writing into `lines`. */
function capture(format: 'json' | 'pretty') {
  const lines: string[] = [];
  const log = createLogger('debug', 'logger_test', { format, destination: { write: (line: string) => lines.push(line) } });
  return { lines, log };
}

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('logger');
});
afterAll(async () => {
  await db?.drop();
});

/** The error a pg pool emits when the backend of an idle client is terminated: pg-pool hangs the client on it. */
async function idleConnectionError(): Promise<Error> {
  const pool = new pg.Pool({ connectionString: db.url, max: 1, application_name: 'logger_test_idle' });
  try {
    const failed = new Promise<Error>((resolve) => pool.once('error', resolve));
    await pool.query('select 1'); // one client, now idle in the pool
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'logger_test_idle'");
    } finally {
      await admin.end();
    }
    return await failed;
  } finally {
    await pool.end().catch(() => {});
  }
}

describe('createLogger | errors never dump the objects they carry', () => {
  it('a pg idle-connection error (its client attached) is logged by message, code and small fields, whatever the key', async () => {
    const error = await idleConnectionError();
    expect((error as { client?: unknown }).client).toBeInstanceOf(pg.Client);
    const { lines, log } = capture('json');
    log.warn({ err: error }, 'database connection lost');
    log.warn({ error, job: 'x' }, 'graphile-worker style'); // graphile-worker passes { error } or { e }
    log.warn(error);
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line.length).toBeLessThan(2000);
      expect(line).not.toContain('"client"');
      expect(line).not.toContain('connectionParameters');
      expect(line).not.toContain(db.name); // the client's connection parameters are not in it
    }
    const first = JSON.parse(lines[0]!) as { err: Record<string, unknown> };
    expect(first.err).toMatchObject({
      type: 'DatabaseError',
      message: 'terminating connection due to administrator command',
      code: '57P01',
      severity: 'FATAL',
    });
    expect(String(first.err['stack'])).toContain('terminating connection due to administrator command');
    expect((JSON.parse(lines[1]!) as { error: { code: string } }).error.code).toBe('57P01');
  });

  it('keeps the cause chain, each cause written the same way', () => {
    const { lines, log } = capture('json');
    const root = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET', socket: { huge: 'x'.repeat(10_000) } });
    log.error({ err: new Error('the mail could not be sent', { cause: root }) }, 'mail failed');
    const { err } = JSON.parse(lines[0]!) as { err: { message: string; cause: Record<string, unknown> } };
    expect(err.message).toBe('the mail could not be sent');
    expect(err.cause).toMatchObject({ type: 'Error', message: 'socket hang up', code: 'ECONNRESET' });
    expect(err.cause).not.toHaveProperty('socket');
    expect(lines[0]!.length).toBeLessThan(3000);
  });
});

describe('createLogger | LOG_FORMAT', () => {
  it('json: one JSON object a line, with level, time, app and the fields', () => {
    const { lines, log } = capture('json');
    log.info({ status: 200 }, 'GET /notes 200 1.0 ms');
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, app: 'logger_test', status: 200, msg: 'GET /notes 200 1.0 ms' });
  });

  it('pretty: time, level, message and fields on one readable line; an error with its stack below', () => {
    const { lines, log } = capture('pretty');
    log.info({ status: 200, route: '/notes' }, 'GET /notes 200 1.0 ms');
    log.warn('database connection lost');
    log.error({ err: Object.assign(new Error('boom'), { code: 'E_BOOM' }) }, 'request failed');
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/notes 200 1\.0 ms \{"status":200,"route":"\/notes"\}\n$/);
    expect(lines[1]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: database connection lost\n$/);
    expect(lines[2]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] ERROR: request failed ?\n/);
    expect(lines[2]).toContain('Error: boom');
    expect(lines[2]).toContain('"code": "E_BOOM"');
    for (const line of lines) expect(line.startsWith('{')).toBe(false);
    expect(lines.join('')).not.toContain('logger_test'); // the app name is left out of readable lines
  });
});
