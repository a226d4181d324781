/**
 * Several instances behave as one: two `bindery serve` processes per
 * session driver and two `bindery worker` processes, all on one PostgreSQL
 * with the same keys, driven over real HTTP (docs/deploy.md "Scaling out").
 *
 * The processes start once for the file (in parallel); each check uses its
 * own users and client addresses, so the checks do not share counts.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import bcrypt from 'bcryptjs';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeAppKey, generateAppKey } from '../../runtime/config/app-key.js';
import { Encrypter } from '../../runtime/crypto/encrypter.js';
import { KeyRing } from '../../runtime/crypto/key-ring.js';
import { readOutbox } from '../../runtime/mail/index.js';
import { Client } from '../runtime/auth/support/client.js';
import { runCli, type CliRun } from '../runtime/cli/run-cli.js';
import { waitFor } from '../runtime/jobs/wait-for.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';
import { ready, ROOT, SCALE_APP, startInstance, type Instance } from './instances.js';

const OLD_KEY = generateAppKey();
const KEY = generateAppKey();
const PASSWORD = 'correct horse battery';
const keyOf = (k: string) => (decodeAppKey(k) as { key: Buffer }).key;

let database: TestDatabase;
let db: Kysely<any>;
let migrations: CliRun[];
const instances: Instance[] = [];
let cookieA: Instance, cookieB: Instance, dbA: Instance, dbB: Instance;

const env = (extra: Record<string, string> = {}) => ({
  ...referenceAppEnv,
  DATABASE_URL: database.url,
  APP_ENV: 'production',
  APP_URL: 'https://bindery.example.test',
  APP_KEY: KEY,
  APP_PREVIOUS_KEYS: OLD_KEY,
  MAIL_DRIVER: 'outbox',
  LOG_LEVEL: 'silent',
  HTTP_ADDR: '127.0.0.1:0',
  JOBS_POLL_INTERVAL: '200ms',
  // Explicit, so a developer's .env (read by the CLI under the real environment) changes nothing here.
  CACHE_DRIVER: 'database',
  AUTH_THROTTLE: '5',
  HTTP_TRUST_PROXY: 'false',
  ...extra,
});

beforeAll(async () => {
  database = await createTestDatabase('scale_out');
  db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 2 }) }) });
  migrations = await Promise.all([0, 1].map(() => runCli(['migrate', '--app', SCALE_APP], { cwd: ROOT, env: env() })));
  await sql`create table scale_marks (label text not null, pid int not null)`.execute(db);
  await sql`create table scale_ticks (scheduled_at timestamptz not null, pid int not null)`.execute(db);
  cookieA = startInstance('serve A (cookie)', ['serve'], env({ SESSION_DRIVER: 'cookie' }));
  cookieB = startInstance('serve B (cookie)', ['serve'], env({ SESSION_DRIVER: 'cookie' }));
  dbA = startInstance('serve A (database)', ['serve'], env({ SESSION_DRIVER: 'database' }));
  dbB = startInstance('serve B (database)', ['serve'], env({ SESSION_DRIVER: 'database' }));
  instances.push(cookieA, cookieB, dbA, dbB);
  await Promise.all(instances.map((i) => ready(i)));
  // Booting migrated graphile-worker's schema. The every-minute task last ran
  // three minutes ago: the workers catch up the missed minutes at once.
  await sql`insert into graphile_worker._private_known_crontabs (identifier, known_since, last_execution)
    values ('scale:tick', now() - interval '1 hour', date_trunc('minute', now()) - interval '3 minutes')`.execute(db);
  const workers = [1, 2].map((n) => startInstance(`worker ${n}`, ['worker'], env()));
  instances.push(...workers);
  await Promise.all(workers.map((i) => ready(i)));
}, 120_000);

afterAll(async () => {
  const codes = await Promise.all(instances.map((i) => i.stop()));
  await db?.destroy();
  await database?.drop();
  expect(codes, instances.map((i) => `${i.name}:\n${i.output()}`).join('\n')).toEqual(instances.map(() => 0));
}, 60_000);

let users = 0;
async function makeUser(): Promise<{ id: number; email: string }> {
  users++;
  return db
    .insertInto('users')
    .values({ name: `Scale ${users}`, email: `scale${users}@example.test`, password: bcrypt.hashSync(PASSWORD, 4), admin: false })
    .returning(['id', 'email'])
    .executeTakeFirstOrThrow();
}

async function login(c: Client, email: string): Promise<void> {
  await c.page('/login');
  const res = await c.form('/login', { email, password: PASSWORD });
  expect(res.status, res.body).toBe(303);
  expect(res.location).toBe('/dashboard');
}

/** The same browser (its cookies) talking to another instance. */
function on(instance: Instance, c: Client, ip = '127.0.0.1'): Client {
  const other = new Client(instance.url, ip);
  for (const [k, v] of c.cookies) other.cookies.set(k, v);
  other.token = c.token;
  return other;
}

const dashboard = async (c: Client) => {
  const r = await c.send('GET', '/dashboard', { headers: { accept: 'text/html' } });
  return r.status === 200 ? 'signed in' : `${r.status} ${r.location}`;
};

describe('bindery migrate | run twice at the same time', () => {
  it('both succeed; the lock lets one apply every migration and the other find nothing to apply', async () => {
    expect(
      migrations.map((m) => m.code),
      migrations.map((m) => m.stdout + m.stderr).join('\n'),
    ).toEqual([0, 0]);
    const applied = migrations.map((m) => Number(/Migrations: applied (\d+)\./.exec(m.stdout)?.[1] ?? 0));
    const rows = (await sql<{ n: number }>`select count(*)::int as n from bindery_migrations`.execute(db)).rows[0]!.n;
    expect(rows).toBeGreaterThan(0);
    expect(applied.sort((x, y) => x - y)).toEqual([0, rows]);
    expect(migrations.some((m) => m.stdout.includes('Migrations: nothing to apply.'))).toBe(true);
  });
});

describe('Sessions | a login on one instance is signed in on the other', () => {
  it('cookie driver: a guest on A, then signed in on A and on B after a login on A', async () => {
    const user = await makeUser();
    const a = new Client(cookieA.url);
    expect(await dashboard(a)).toBe('303 /login');
    await login(a, user.email);
    expect(await dashboard(on(cookieB, a))).toBe('signed in');
    expect(await dashboard(a)).toBe('signed in');
  });

  it('database driver: signed in on B after a login on A; logout on A ends the session on B', async () => {
    const user = await makeUser();
    const a = new Client(dbA.url);
    await login(a, user.email);
    const b = on(dbB, a);
    expect(await dashboard(b)).toBe('signed in');
    await a.page('/dashboard');
    const out = await a.form('/logout', {});
    expect(out.status, out.body).toBe(303);
    // B still holds the old cookie: the session row is gone, so it is a guest.
    expect(await dashboard(b)).toBe('303 /login');
  });

  it("database driver: a password reset on A ends the user's session on B", async () => {
    const user = await makeUser();
    const elsewhere = new Client(dbB.url);
    await login(elsewhere, user.email);
    expect(await dashboard(elsewhere)).toBe('signed in');
    const a = new Client(dbA.url, '127.0.9.1');
    await a.page('/forgot-password');
    expect((await a.form('/forgot-password', { email: user.email })).status).toBe(303);
    let link: string | undefined;
    await waitFor(
      async () => {
        const mail = (await readOutbox(db, { to: user.email, limit: 1 }))[0];
        link = mail?.links.find((l) => l.startsWith('https://bindery.example.test/reset-password?token='));
        return link !== undefined;
      },
      'the reset mail',
      15_000,
    );
    const url = new URL(link!);
    await a.page(`${url.pathname}${url.search}`);
    const reset = await a.form(
      '/reset-password',
      { token: url.searchParams.get('token')!, password: 'new password 2', password_confirmation: 'new password 2' },
      { referer: `${url.pathname}${url.search}` },
    );
    expect(reset.status, reset.body).toBe(303);
    expect(reset.location).toBe('/login');
    expect(await dashboard(elsewhere)).toBe('303 /login');
  });
});

describe('Key rotation | APP_KEY new, APP_PREVIOUS_KEYS old, on every instance', () => {
  it('a session cookie sealed with the previous key is read by both instances; what they write is sealed with the new key only', async () => {
    const user = await makeUser();
    const a = new Client(cookieA.url);
    await login(a, user.email);
    const current = new Encrypter(new KeyRing(keyOf(KEY)));
    const old = new Encrypter(new KeyRing(keyOf(OLD_KEY)));
    const name = [...a.cookies.keys()].find((k) => k.endsWith('app_session'))!;
    expect(name).toBeDefined();
    const opened = current.open('session', a.cookies.get(name)!, { context: name });
    expect(opened).not.toBeNull();
    // The browser as it was before the rotation: its cookie sealed with the old key only.
    const before = new Client(cookieA.url);
    before.cookies.set(name, old.seal('session', opened!.plaintext, { context: name }));
    expect(old.open('session', before.cookies.get(name)!, { context: name })).not.toBeNull();
    expect(current.open('session', before.cookies.get(name)!, { context: name })).toBeNull();
    expect(await dashboard(on(cookieB, before))).toBe('signed in');
    const onA = on(cookieA, before);
    expect(await dashboard(onA)).toBe('signed in');
    // A write (here the logout) seals the session under APP_KEY.
    await onA.page('/dashboard');
    expect((await onA.form('/logout', {})).status).toBe(303);
    const resealed = onA.cookies.get(name)!;
    expect(current.open('session', resealed, { context: name })).not.toBeNull();
  });
});

describe('Counts in the database cache are shared', () => {
  it('login throttle: 5 failed attempts spread over A and B, then the 6th (with the right password) is refused on either', async () => {
    const user = await makeUser();
    const attempt = async (instance: Instance, password: string) => {
      const c = new Client(instance.url, '127.0.9.2');
      await c.page('/login');
      const res = await c.json('POST', '/login', { email: user.email, password });
      return { status: res.status, error: res.status === 422 ? String(res.json().errors.email) : undefined };
    };
    for (let i = 0; i < 5; i++)
      expect(await attempt(i % 2 === 0 ? dbA : dbB, 'wrong')).toEqual({
        status: 422,
        error: 'These credentials do not match our records.',
      });
    for (const instance of [dbB, dbA, cookieA]) {
      const sixth = await attempt(instance, PASSWORD);
      expect(sixth.status).toBe(422);
      expect(sixth.error).toMatch(/^Too many login attempts/);
    }
  });

  it('route rate limit (POST /register, 5 a minute): 5 spread over A and B, the 6th is 429 on either', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const instance = [dbA, dbB, cookieA, cookieB][i % 4]!;
      const r = await new Client(instance.url, '127.0.9.3').json('POST', '/register', { name: 'x' });
      statuses.push(r.status);
    }
    expect(statuses.slice(0, 5).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });
});

describe('Jobs, events and scheduled tasks | two workers, each runs once', () => {
  const marks = async (label: string) =>
    (await sql<{ label: string; pid: number }>`select label, pid from scale_marks where label = ${label}`.execute(db)).rows;

  it('a job queued on A runs exactly once', async () => {
    for (const [i, instance] of [dbA, dbB, cookieA, cookieB].entries()) {
      expect((await fetch(`${instance.url}/scale/job?label=j${i}`, { method: 'POST' })).status).toBe(200);
    }
    await waitFor(
      async () =>
        (await sql<{ n: number }>`select count(*)::int as n from scale_marks where label like 'job:%'`.execute(db)).rows[0]!.n >= 4,
      'the jobs to run',
      20_000,
    );
    await waitFor(
      async () =>
        (await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'scale:mark'`.execute(db))
          .rows[0]!.n === 0,
      'the queue to empty',
      10_000,
    );
    for (let i = 0; i < 4; i++) expect(await marks(`job:j${i}`)).toHaveLength(1);
  });

  it('an event emitted on B runs its asynchronous listener once', async () => {
    expect((await fetch(`${dbB.url}/scale/event?label=e1`, { method: 'POST' })).status).toBe(200);
    await waitFor(async () => (await marks('listener:e1')).length > 0, 'the listener to run', 20_000);
    await waitFor(
      async () => (await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs`.execute(db)).rows[0]!.n === 0,
      'the queue to empty',
      10_000,
    );
    expect(await marks('listener:e1')).toHaveLength(1);
  });

  it('an every-minute task with two workers running fires once per minute (the three missed minutes caught up once)', async () => {
    await waitFor(
      async () => (await sql<{ n: number }>`select count(distinct scheduled_at)::int as n from scale_ticks`.execute(db)).rows[0]!.n >= 3,
      'the missed minutes to run',
      20_000,
    );
    await waitFor(
      async () =>
        (await sql<{ n: number }>`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'scale:tick'`.execute(db))
          .rows[0]!.n === 0,
      'the ticks to finish',
      10_000,
    );
    const ticks = (
      await sql<{
        at: Date;
        n: number;
      }>`select scheduled_at as at, count(*)::int as n from scale_ticks group by scheduled_at order by scheduled_at`.execute(db)
    ).rows;
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(ticks.map((t) => t.n)).toEqual(ticks.map(() => 1));
  });
});

describe("The image's HEALTHCHECK, run on the host", () => {
  it('passes against a ready instance and fails where nothing listens', async () => {
    const line = readFileSync(`${ROOT}Dockerfile`, 'utf8')
      .replace(/\s*\\\n\s*/g, ' ')
      .split('\n')
      .find((l) => l.startsWith('HEALTHCHECK'))!;
    const [command, ...args] = JSON.parse(line.slice(line.indexOf('CMD ') + 4)) as string[];
    expect(command).toBe('node');
    const run = (url: string) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(
          process.execPath,
          args.map((a) => a.replace('http://127.0.0.1:3000', url)),
          { stdio: 'ignore' },
        );
        child.on('close', resolve);
      });
    expect(await run(dbA.url)).toBe(0);
    expect(await run('http://127.0.0.1:9')).toBe(1);
  });
});
