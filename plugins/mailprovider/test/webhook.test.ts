/**
 * The mail-provider plugin end to end (docs/spec.md 4.4, 5.7, 6.2):
 * the webhook over real HTTP, the job over real graphile-worker, the
 * suppression table in real PostgreSQL, the commands through the real CLI,
 * and the suppression check the mailer calls.
 */
import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import mailprovider, {
  basicAuth,
  credentialsMatch,
  normalizeAddress,
  parseBasicAuthorization,
  toWebhookRecord,
  webhookJob,
  type MailproviderService,
} from '@bindery/mailprovider';
import { createTestApp, type TestApp } from 'bindery/app';
import { SettingsError } from 'bindery/config';
import { HttpError } from 'bindery/errors';
import { startWorker, type JobContext } from 'bindery/jobs';
import { deliverableRecipients, type MailSuppression } from 'bindery/plugins';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import { waitFor } from '../../../test/runtime/jobs/wait-for.js';
import { jobsNamed } from '../../../test/runtime/jobs/jobs-named.js';
import { runCli, runCliInProcess } from '../../../test/runtime/cli/run-cli.js';
import app, { emitted } from './fixtures/app.js';

const USER = 'provider';
const PASSWORD = 'correct horse battery staple';
const ENV = { MAILPROVIDER_WEBHOOK_USER: USER, MAILPROVIDER_WEBHOOK_PASSWORD: PASSWORD, JOBS_POLL_INTERVAL: '200ms' };
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const AUTH = basic(USER, PASSWORD);

let database: TestDatabase;
let t: TestApp;

beforeAll(async () => {
  database = await createTestDatabase('mailprovider');
  t = await createTestApp(app, { databaseUrl: database.url, env: ENV });
  await startWorker(t.running.services);
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});
beforeEach(async () => {
  emitted.length = 0;
  await sql`delete from mailprovider_suppressions`.execute(t.db);
  // Failure counts and seen records live in the cache.
  await sql`delete from bindery_cache`.execute(t.db);
});

function post(body: unknown, headers: Record<string, string> = {}, path = '/mailprovider/webhook') {
  return fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: AUTH, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function webhookJobs(): Promise<number> {
  return jobsNamed(t.running.services, t.db, 'mailprovider:webhook');
}

async function suppressions(): Promise<{ email: string; event: string; reason: string; since: Date }[]> {
  return (
    await sql<{
      email: string;
      event: string;
      reason: string;
      since: Date;
    }>`select email, event, reason, since from mailprovider_suppressions order by email`.execute(t.db)
  ).rows;
}

/** Post a record and wait until the worker has run its job. */
async function deliver(body: unknown): Promise<void> {
  const res = await post(body);
  expect(res.status).toBe(204);
  await waitFor(async () => (await webhookJobs()) === 0, 'the webhook job to run');
}

describe('mailprovider.webhook | credentials (HTTP Basic, constant time)', () => {
  const record = { RecordType: 'SpamComplaint', Email: 'creds@example.com' };

  it('answers 401 with a Basic challenge when credentials are missing, wrong or malformed, and queues nothing', async () => {
    for (const authorization of [
      undefined,
      basic(USER, 'wrong'),
      basic('someone', PASSWORD),
      basic(USER, `${PASSWORD}x`),
      'Basic !!!',
      `Bearer ${PASSWORD}`,
      basic('', ''),
    ]) {
      const res = await post(record, authorization === undefined ? { authorization: '' } : { authorization });
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="mailprovider"');
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    expect(await webhookJobs()).toBe(0);
  });

  it('answers 204 and queues the record with the right credentials', async () => {
    await deliver(record);
    expect((await suppressions()).map((s) => s.email)).toEqual(['creds@example.com']);
  });

  it('compares both parts, and refuses everything when no credentials are configured', async () => {
    expect(parseBasicAuthorization(basic('a:b', 'c'))).toEqual({ user: 'a', password: 'b:c' });
    expect(credentialsMatch(AUTH, { user: USER, password: PASSWORD })).toBe(true);
    expect(credentialsMatch(AUTH, { user: USER, password: undefined })).toBe(false);
    expect(credentialsMatch(basic('', ''), { user: '', password: '' })).toBe(false);
    const middleware = basicAuth(() => undefined);
    const ctx = { services: {}, request: { headers: { authorization: AUTH } }, log: { error() {} } } as never;
    const refused = await middleware(ctx, async () => 'ran').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ status: 401, headers: { 'WWW-Authenticate': 'Basic realm="mailprovider"' } });
  });

  it('the app does not boot when either credential is missing', async () => {
    const missing = await createTestApp(app, { databaseUrl: database.url, env: { MAILPROVIDER_WEBHOOK_USER: USER } }).catch(
      (e: unknown) => e,
    );
    expect(missing).toBeInstanceOf(SettingsError);
    expect((missing as Error).message).toContain('MAILPROVIDER_WEBHOOK_PASSWORD is missing');
    const both = await createTestApp(app, { databaseUrl: database.url }).catch((e: unknown) => e);
    expect((both as SettingsError).problems.map((p) => p.names[0])).toEqual(['MAILPROVIDER_WEBHOOK_USER', 'MAILPROVIDER_WEBHOOK_PASSWORD']);
  });
});

/** POST a record from a given local address (127.0.0.x), over node:http. */
function postFrom(
  ip: string,
  body: unknown,
  authorization: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const url = new URL(t.url);
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/mailprovider/webhook',
        localAddress: ip,
        headers: { 'content-type': 'application/json', authorization, 'content-length': String(Buffer.byteLength(text)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

describe('mailprovider.webhook | wrong credentials are limited per address', () => {
  const record = { RecordType: 'SpamComplaint', Email: 'limited@example.com' };

  it('after MAILPROVIDER_WEBHOOK_FAILURES (10) wrong ones in a minute: 429 with Retry-After, even with the right credentials; other addresses are not affected', async () => {
    for (let i = 0; i < 10; i++) expect((await postFrom('127.0.0.51', record, basic(USER, `guess${i}`))).status).toBe(401);
    for (const authorization of [basic(USER, 'guess-more'), AUTH]) {
      const res = await postFrom('127.0.0.51', record, authorization);
      expect(res.status).toBe(429);
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(res.body)).toMatchObject({ status: 429, title: 'Too Many Requests' });
    }
    expect(await webhookJobs()).toBe(0);
    // Another address: its own count.
    expect((await postFrom('127.0.0.52', record, basic(USER, 'wrong'))).status).toBe(401);
    expect((await postFrom('127.0.0.52', record, AUTH)).status).toBe(204);
    await waitFor(async () => (await webhookJobs()) === 0, 'the webhook job to run');
  });

  it('right credentials do not count', async () => {
    for (let i = 0; i < 12; i++)
      expect((await postFrom('127.0.0.53', { RecordType: 'Delivery', Email: 'ok@example.com' }, AUTH)).status).toBe(204);
    for (let i = 0; i < 9; i++) expect((await postFrom('127.0.0.53', record, basic(USER, 'x'))).status).toBe(401);
    expect((await postFrom('127.0.0.53', record, AUTH)).status).toBe(204);
    await waitFor(async () => (await webhookJobs()) === 0, 'the webhook job to run');
  });
});

describe('mailprovider.webhook | replays', () => {
  it('a record whose MessageID and event were already received is answered 204 and not queued again', async () => {
    const record = { RecordType: 'SpamComplaint', Email: 'replayed@example.com', MessageID: '883953f4-6105-42a2-a16a-77a8eac79483' };
    await deliver(record);
    expect((await suppressions()).map((s) => s.email)).toEqual(['replayed@example.com']);
    expect(emitted.filter((e) => e.name === 'mailprovider:suppressed')).toHaveLength(1);
    // The list is changed meanwhile; the same record again changes nothing, nothing is queued.
    await sql`delete from mailprovider_suppressions`.execute(t.db);
    for (let i = 0; i < 3; i++) {
      const res = await post(record);
      expect(res.status).toBe(204);
      expect(await webhookJobs()).toBe(0);
    }
    expect(await suppressions()).toEqual([]);
    expect(emitted.filter((e) => e.name === 'mailprovider:suppressed')).toHaveLength(1);
  });

  it('two copies at the same moment queue one job; the same MessageID with another event, and records without a MessageID, are processed', async () => {
    const record = { RecordType: 'SubscriptionChange', Email: 'twice@example.com', SuppressSending: true, MessageID: 'msg-twice' };
    const [a, b] = await Promise.all([post(record), post(record)]);
    expect([a.status, b.status]).toEqual([204, 204]);
    await waitFor(async () => (await webhookJobs()) === 0, 'the webhook job to run');
    expect(emitted.filter((e) => e.name === 'mailprovider:suppressed')).toHaveLength(1);
    // The same message, another event (the address resubscribed): processed.
    await deliver({ ...record, SuppressSending: false });
    expect(await suppressions()).toEqual([]);
    // Without a MessageID there is nothing to recognise: each is processed.
    await deliver({ RecordType: 'SpamComplaint', Email: 'no-id@example.com' });
    await sql`delete from mailprovider_suppressions`.execute(t.db);
    await deliver({ RecordType: 'SpamComplaint', Email: 'no-id@example.com' });
    expect((await suppressions()).map((s) => s.email)).toEqual(['no-id@example.com']);
  });
});

describe('mailprovider.webhook | bodies', () => {
  it('a body that is not JSON is 400, malformed JSON is 400 or 422 problem details; nothing is queued', async () => {
    const cases: [string, Record<string, string>, number][] = [
      ['RecordType=Bounce&Email=a%40example.com', { 'content-type': 'application/x-www-form-urlencoded' }, 400],
      ['RecordType: Bounce', { 'content-type': 'text/plain' }, 400],
      ['<RecordType>Bounce</RecordType>', { 'content-type': 'application/xml' }, 400],
      ['{"RecordType": "Bounce", "Email": ', {}, 400],
      ['[1, 2]', {}, 400],
      ['"Bounce"', {}, 400],
      [JSON.stringify({ Email: 'a@example.com' }), {}, 422],
      [JSON.stringify({ RecordType: 'Bounce', Email: 'a@example.com', Inactive: 'yes' }), {}, 400],
      [JSON.stringify({ RecordType: 'Bounce', Email: 42 }), {}, 400],
    ];
    for (const [body, headers, status] of cases) {
      const res = await post(body, headers);
      expect(res.status, body).toBe(status);
      if (headers['content-type'] === undefined) {
        // A JSON body gets problem details (docs/spec.md 7 rule 2); the form post above gets the HTML page.
        expect(res.headers.get('content-type'), body).toMatch(/^application\/problem\+json/);
        expect(((await res.json()) as { status: number }).status).toBe(status);
      }
    }
    expect(await webhookJobs()).toBe(0);
  });

  it("a body over 1 MiB is 413 (the route's own limit, below HTTP_MAX_BODY); one just under is accepted", async () => {
    const padding = (n: number) => JSON.stringify({ RecordType: 'Delivery', Email: 'big@example.com', Description: 'x'.repeat(n) });
    const over = await post(padding(1024 * 1024));
    expect(over.status).toBe(413);
    expect(((await over.json()) as { status: number }).status).toBe(413);
    const under = await post(padding(1024 * 1024 - 200));
    expect(under.status).toBe(204);
  });

  it('Delivery and unknown record types, blank addresses and addresses over 254 bytes are answered 204 and ignored', async () => {
    const local = 'a'.repeat(64);
    const long = `${local}@${'b'.repeat(255 - 67)}.c`; // 255 bytes
    expect(Buffer.byteLength(long)).toBe(255);
    for (const body of [
      { RecordType: 'Delivery', Email: 'd@example.com' },
      { RecordType: 'Open', Email: 'd@example.com' },
      { RecordType: 'Bounce', Type: 'HardBounce', Email: '   ', Inactive: true },
      { RecordType: 'SpamComplaint' },
      { RecordType: 'SpamComplaint', Email: long },
    ]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(204);
    }
    expect(await webhookJobs()).toBe(0);
    expect(normalizeAddress(long.slice(1))).toBe(long.slice(1)); // 254 bytes is kept
    expect(normalizeAddress(`  Ünïcode@Example.COM `)).toBe('ünïcode@example.com');
  });
});

describe('mailprovider:webhook job | docs/spec.md 6.2 over real graphile-worker', () => {
  it('Bounce: a hard bounce with Inactive lists the address (trimmed, lower-cased); soft bounces and active bounces change nothing', async () => {
    await deliver({ RecordType: 'Bounce', Type: 'SoftBounce', Email: 'soft@example.com', Inactive: false });
    await deliver({ RecordType: 'Bounce', Type: 'HardBounce', Email: 'active@example.com', Inactive: false });
    expect(await suppressions()).toEqual([]);
    await deliver({
      RecordType: 'Bounce',
      Type: 'HardBounce',
      Email: '  Hard@Example.COM ',
      Inactive: true,
      Description: 'The server was unable to deliver your message (ex: unknown user, mailbox not found).',
    });
    expect(await suppressions()).toEqual([
      {
        email: 'hard@example.com',
        event: 'HardBounce',
        reason: 'The server was unable to deliver your message (ex: unknown user, mailbox not found).',
        since: expect.any(Date),
      },
    ]);
    expect(emitted).toEqual([
      {
        name: 'mailprovider:suppressed',
        payload: { email: 'hard@example.com', event: 'HardBounce', reason: expect.any(String) },
        via: 'job:mailprovider:webhook',
      },
    ]);
  });

  it('a late soft bounce neither lifts nor changes a suppression', async () => {
    await deliver({ RecordType: 'Bounce', Type: 'HardBounce', Email: 'late@example.com', Inactive: true });
    const before = await suppressions();
    await deliver({ RecordType: 'Bounce', Type: 'SoftBounce', Email: 'late@example.com', Inactive: false });
    await deliver({ RecordType: 'Bounce', Type: 'SoftBounce', Email: 'late@example.com', Inactive: true });
    expect(await suppressions()).toEqual(before);
  });

  it('SpamComplaint lists the address; a second listing keeps the first', async () => {
    await deliver({ RecordType: 'SpamComplaint', Email: 'spam@example.com' });
    const first = await suppressions();
    expect(first).toMatchObject([{ email: 'spam@example.com', event: 'SpamComplaint' }]);
    await deliver({ RecordType: 'Bounce', Type: 'HardBounce', Email: 'spam@example.com', Inactive: true });
    expect(await suppressions()).toEqual(first);
  });

  it('SubscriptionChange: SuppressSending lists the address (Recipient), resuming removes it', async () => {
    await deliver({
      RecordType: 'SubscriptionChange',
      Recipient: 'Sub@Example.com',
      SuppressSending: true,
      SuppressionReason: 'ManualSuppression',
    });
    expect(await suppressions()).toMatchObject([{ email: 'sub@example.com', event: 'SubscriptionChange', reason: 'ManualSuppression' }]);
    await deliver({ RecordType: 'SubscriptionChange', Recipient: 'sub@example.com', SuppressSending: false });
    expect(await suppressions()).toEqual([]);
    expect(emitted.map((e) => e.name)).toEqual(['mailprovider:suppressed', 'mailprovider:unsuppressed']);
    expect(emitted[1]!.payload).toEqual({ email: 'sub@example.com', by: 'webhook' });
  });

  it('logs what it did with the address masked, never in full', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = pino(
      { level: 'debug' },
      new Writable({
        write(chunk, _enc, done) {
          lines.push(JSON.parse(String(chunk)));
          done();
        },
      }),
    );
    const record = {
      recordType: 'SpamComplaint',
      email: 'jane.doe@example.com',
      type: null,
      inactive: false,
      suppressSending: null,
      reason: 'complained',
    } as const;
    const ctx = {
      services: t.running.services,
      log,
      job: { id: '1', name: webhookJob.name, attempt: 1, maxAttempts: 10, idempotencyKey: 'graphile-worker:1:0' },
      origin: { actor: { type: 'system', id: '' } },
      signal: new AbortController().signal,
    } as unknown as JobContext;
    await webhookJob.handle(record, ctx);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        email: 'j***@example.com',
        outcome: 'listed',
        msg: 'mailprovider: SpamComplaint for j***@example.com: listed',
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('jane.doe@');
  });

  it('maps bound input to the job payload', () => {
    expect(toWebhookRecord({ recordType: 'Delivery', email: 'x@example.com' })).toBeNull();
    expect(toWebhookRecord({ recordType: 'Bounce', type: 'HardBounce', email: ' X@Example.com', inactive: true })).toEqual({
      recordType: 'Bounce',
      email: 'x@example.com',
      type: 'HardBounce',
      inactive: true,
      suppressSending: null,
      reason: '',
    });
  });
});

describe('Suppression check | what the mailer calls', () => {
  it('isSuppressed and suppressedAmong compare trimmed, lower-cased addresses', async () => {
    await deliver({ RecordType: 'SpamComplaint', Email: 'no-mail@example.com' });
    const check = t.running.services.mailSuppression as MailSuppression;
    expect(await check.isSuppressed(' NO-MAIL@example.com ')).toBe(true);
    expect(await check.isSuppressed('mail@example.com')).toBe(false);
    expect(await check.isSuppressed('')).toBe(false);
    expect([...(await check.suppressedAmong(['a@example.com', 'No-Mail@Example.com']))]).toEqual(['no-mail@example.com']);
    expect((t.running.services.mailprovider as MailproviderService).suppressions).toBe(check);
  });

  it('the mailer skips suppressed addresses', async () => {
    await deliver({ RecordType: 'Bounce', Type: 'HardBounce', Email: 'gone@example.com', Inactive: true });
    const outbox: { to: string[]; subject: string }[] = [];
    // The shape of the app's mailer: check the list, then hand the rest to the transport.
    const mailer = {
      async send(message: { to: string[]; subject: string }) {
        const { deliver: to, skipped } = await deliverableRecipients(t.running.services, message.to);
        if (to.length > 0) outbox.push({ ...message, to });
        return skipped;
      },
    };
    expect(await mailer.send({ to: ['Gone@example.com'], subject: 'Verify your email' })).toEqual(['Gone@example.com']);
    expect(await mailer.send({ to: ['gone@example.com', 'here@example.com'], subject: 'Hello' })).toEqual(['gone@example.com']);
    expect(outbox).toEqual([{ to: ['here@example.com'], subject: 'Hello' }]);
    expect(await deliverableRecipients({}, ['gone@example.com'])).toEqual({ deliver: ['gone@example.com'], skipped: [] }); // no suppression list: everyone
  });
});

// The listing runs through the real CLI (a `node bin/bindery.mjs` process); the other commands
// run the same CLI code in this process: each process start loads every TypeScript source through
// tsx again, which on a loaded 2-core machine took seconds per command and the test past its timeout.
describe('Commands | mailprovider:suppressions and mailprovider:unsuppress (the CLI)', () => {
  const cwd = fileURLToPath(new URL('./fixtures/', import.meta.url));
  const env = () => ({
    DATABASE_URL: database.url,
    APP_KEY: `base64:${Buffer.alloc(32, 3).toString('base64')}`,
    LOG_LEVEL: 'silent',
    MAILPROVIDER_WEBHOOK_USER: USER,
    MAILPROVIDER_WEBHOOK_PASSWORD: PASSWORD,
  });
  const cli = (args: string[]) => runCliInProcess([...args, '--app', 'app.ts'], { cwd, env: env() });

  it('lists the suppressions sorted by email, unsuppresses one, and says when the list is empty', async () => {
    await deliver({ RecordType: 'SpamComplaint', Email: 'zed@example.com' });
    await deliver({ RecordType: 'Bounce', Type: 'HardBounce', Email: 'amy@example.com', Inactive: true, Description: 'Unknown user' });
    const list = await runCli(['mailprovider:suppressions', '--app', 'app.ts'], { cwd, env: env() });
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^EMAIL\s+EVENT\s+REASON\s+SINCE$/);
    expect(lines[1]).toMatch(/^amy@example\.com\s+HardBounce\s+Unknown user\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(lines[2]).toMatch(/^zed@example\.com\s+SpamComplaint\s+\d{4}-/);
    expect(lines).toHaveLength(3);

    const removed = await cli(['mailprovider:unsuppress', ' AMY@example.com']);
    expect(removed).toMatchObject({ code: 0, stdout: 'Removed amy@example.com from the suppression list.\n' });
    expect((await suppressions()).map((s) => s.email)).toEqual(['zed@example.com']);

    const again = await cli(['mailprovider:unsuppress', 'amy@example.com']);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('amy@example.com is not suppressed.\n');

    const none = await cli(['mailprovider:unsuppress']);
    expect(none.code).toBe(2);

    await sql`delete from mailprovider_suppressions`.execute(t.db);
    const empty = await cli(['mailprovider:suppressions']);
    expect(empty).toMatchObject({ code: 0, stdout: 'No suppressed addresses.\n' });
  });
});

describe('The plugin package', () => {
  it('is imported by its package name and imports the framework by its own ("bindery/plugins")', async () => {
    expect(mailprovider.name).toBe('mailprovider');
    const pkg = (await import('@bindery/mailprovider/package.json', { with: { type: 'json' } })).default as {
      peerDependencies: { bindery: string };
    };
    expect(pkg.peerDependencies.bindery).toBe(mailprovider.bindery);
  });

  it('its generated/ is up to date with its schema/', async () => {
    const { generate } = await import('../../../generator/index.js');
    const result = await generate({ root: fileURLToPath(new URL('..', import.meta.url)), check: true });
    expect(result.diagnostics).toEqual([]);
    expect(result.changed).toEqual([]);
  });
});
