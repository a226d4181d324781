/**
 * A read-only database (docs/reliability.md; docs/database.md "Read-only"):
 * `default_transaction_read_only = on`, as a standby after a failover
 * behaves. Writes — a note, a log-in — are 503 problem details
 * `BINDERY_DATABASE_READ_ONLY` with `Retry-After`, never 500; reads still
 * work; `GET /health/ready` is 503 and says why; once the database takes
 * writes again, so does the app.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BROWSER, Client } from '../runtime/auth/support/client.js';
import { bootReferenceApp, makeAccount, type ReferenceApp } from '../app/tokens-support.js';
import { waitFor } from './support/wait-for.js';

let a: ReferenceApp;
let admin: pg.Client;
let name: string;

beforeAll(async () => {
  a = await bootReferenceApp('readonly');
  name = (await sql<{ name: string }>`select current_database() as name`.execute(a.db)).rows[0]!.name;
  const url = new URL(inject('pgUrl'));
  url.pathname = `/${name}`;
  admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end().catch(() => {});
  await a?.close();
});

/** Set the database's default and end every other backend, so the app's next connections take it. */
async function setReadOnly(on: boolean): Promise<void> {
  await admin.query(`alter database "${name}" set default_transaction_read_only = ${on ? 'on' : 'off'}`);
  await admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
}

const ready = async () => {
  const res = await fetch(`${a.url}/health/ready`);
  return { status: res.status, body: (await res.json()) as { status: string; checks: Record<string, string> } };
};

describe('A read-only database', () => {
  it('answers writes 503 BINDERY_DATABASE_READ_ONLY, keeps reads, and /health/ready says so; writes work again after', async () => {
    const user = await makeAccount(a, { email: 'ro@example.test', verified: true });
    await setReadOnly(true);
    try {
      // The pool's terminated connections may answer one 503 "unavailable" first; then every write is read-only.
      const note = await waitFor('a read-only answer to a write', async () => {
        const res = await fetch(`${a.url}/notes`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ title: 'while read-only' }),
        });
        const body = (await res.json()) as Record<string, unknown>;
        return res.status === 503 && body['detail'] === 'The database is unavailable right now; try again in a moment.'
          ? undefined
          : { res, body };
      });
      expect(note.res.status).toBe(503);
      expect(note.res.headers.get('retry-after')).toBe('5');
      expect(note.res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(note.body).toMatchObject({
        status: 503,
        detail: 'The database accepts no writes right now (it is read-only); try again later.',
      });

      expect((await fetch(`${a.url}/notes`, { headers: { accept: 'application/json' } })).status).toBe(200);

      const c = new Client(a.url);
      await c.page('/login');
      const login = await c.form('/login', { email: user.email, password: 'correct horse battery' });
      expect([login.status, login.body]).toEqual([
        503,
        expect.stringContaining('The database accepts no writes right now (it is read-only); try again later.'),
      ]);

      const probe = await ready();
      expect(probe.status).toBe(503);
      expect(probe.body.checks['database']).toMatch(/^read-only \(default_transaction_read_only = on\)/);
    } finally {
      await setReadOnly(false);
    }
    await waitFor('the database to take writes again', async () => ((await ready()).status === 200 ? true : undefined));
    const res = await fetch(`${a.url}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ title: 'after read-only' }),
    });
    expect(res.status).toBe(201);
    expect((await new Client(a.url).send('GET', '/login', { headers: { ...BROWSER } })).status).toBe(200);
  });
});
