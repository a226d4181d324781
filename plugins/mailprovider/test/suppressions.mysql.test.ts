/**
 * The plugin's suppression list on MariaDB (docs/spec.md 2.9, 6.2): the
 * `mailprovider_suppressions` table in its MySQL form (the plugin's
 * generated `mysql/` migrations when the generator wrote them, else the
 * same DDL written here), the list's service and the `mailprovider:webhook`
 * job applying records to it — an address listed once (its first listing
 * kept), removed on a resume, checked trimmed and lower-cased; 4-byte UTF-8
 * addresses kept exactly — and the webhook guard's replay memory and
 * failure count in the database cache.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../runtime/app/logger.js';
import { DatabaseCache } from '../../../runtime/cache/drivers/database-cache.js';
import { CACHE_MIGRATIONS_DIR } from '../../../runtime/cache/cache-step.js';
import { connectDatabase, type Database } from '../../../runtime/db/index.js';
import { createMigrator } from '../../../runtime/db/migrator/index.js';
import type { JobContext } from '../../../runtime/jobs/define-job.js';
import { createTestMariaDatabase, type TestDatabase } from '../../../test/support/database.js';
import type { Database as PluginDatabase } from '../generated/types.js';
import { applyRecord } from '../src/apply-record.js';
import { createService, type MailproviderService } from '../src/service.js';
import { webhookJob } from '../src/webhook.js';
import { WebhookGuard } from '../src/webhook-guard.js';
import type { WebhookRecord } from '../src/records.js';

const PLUGIN_MIGRATIONS = fileURLToPath(new URL('../generated/migrations/', import.meta.url));

/** The generated table in MySQL's DDL (used while the plugin's generated migrations have no mysql/ folder). */
const SUPPRESSIONS_TABLE = `CREATE TABLE mailprovider_suppressions (
  email VARCHAR(254) NOT NULL PRIMARY KEY,
  event VARCHAR(40) NOT NULL,
  reason VARCHAR(200) NOT NULL DEFAULT '',
  since DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`;

let testDb: TestDatabase;
let database: Database;
let db: Kysely<PluginDatabase>;
let service: MailproviderService;
let cache: DatabaseCache;
let clock = Date.UTC(2026, 0, 1);
const log = createLogger('silent', 'mailprovider_maria');

beforeAll(async () => {
  testDb = await createTestMariaDatabase('mailprovidermaria');
  database = await connectDatabase({ url: testDb.url, max: 4 });
  db = database.db as unknown as Kysely<PluginDatabase>;
  const sets = [{ source: 'cache', dir: CACHE_MIGRATIONS_DIR }];
  if (existsSync(`${PLUGIN_MIGRATIONS}mysql`)) sets.push({ source: 'mailprovider', dir: PLUGIN_MIGRATIONS });
  else await database.engine.run(SUPPRESSIONS_TABLE);
  await createMigrator(database, sets).migrate();
  cache = new DatabaseCache(database.db, () => clock);
  const guard = new WebhookGuard({ cache, maxFailures: 3, replayWindowMs: 60_000, now: () => clock });
  service = createService(db, {}, { user: 'u', password: 'p' }, guard);
});
afterAll(async () => {
  await database?.close();
  await testDb?.drop();
});

const record = (over: Partial<WebhookRecord>): WebhookRecord => ({
  recordType: 'SpamComplaint',
  email: 'x@example.com',
  type: null,
  inactive: false,
  suppressSending: null,
  reason: '',
  ...over,
});

const runJob = (payload: WebhookRecord) =>
  webhookJob.handle(payload, { services: { mailprovider: service }, log } as unknown as JobContext);

describe('mailprovider on MariaDB | the suppression list', () => {
  it('the job lists an address once, keeping the first listing; a resume removes it', async () => {
    await runJob(record({ recordType: 'Bounce', type: 'HardBounce', inactive: true, email: 'gone@example.com', reason: 'first' }));
    await runJob(record({ email: 'gone@example.com', reason: 'second' }));
    const rows = await service.suppressions.list();
    expect(rows.map((r) => [r.email, r.event, r.reason])).toEqual([['gone@example.com', 'HardBounce', 'first']]);
    expect(rows[0]!.since).toBeInstanceOf(Date);
    expect(
      await applyRecord(
        db,
        service.suppressions,
        record({ recordType: 'SubscriptionChange', email: 'gone@example.com', suppressSending: false }),
      ),
    ).toBe('removed');
    expect(
      await applyRecord(
        db,
        service.suppressions,
        record({ recordType: 'SubscriptionChange', email: 'gone@example.com', suppressSending: false }),
      ),
    ).toBe('not listed');
    expect(await service.suppressions.list()).toEqual([]);
  });

  it('soft bounces change nothing', async () => {
    expect(
      await applyRecord(
        db,
        service.suppressions,
        record({ recordType: 'Bounce', type: 'SoftBounce', inactive: true, email: 'soft@example.com' }),
      ),
    ).toBe('unchanged');
    expect(await service.suppressions.isSuppressed('soft@example.com')).toBe(false);
  });

  it('checks addresses trimmed and lower-cased; 4-byte UTF-8 addresses are kept exactly', async () => {
    await runJob(record({ email: 'no-mail@example.com' }));
    await runJob(record({ email: 'jürgen😀@exämple.com', reason: 'Spam 🚫' }));
    expect(await service.suppressions.isSuppressed(' NO-MAIL@example.com ')).toBe(true);
    expect(await service.suppressions.isSuppressed('mail@example.com')).toBe(false);
    expect(await service.suppressions.isSuppressed('JÜRGEN😀@EXÄMPLE.COM')).toBe(true);
    expect(
      [...(await service.suppressions.suppressedAmong(['a@example.com', 'No-Mail@Example.com', 'jürgen😀@exämple.com']))].sort(),
    ).toEqual(['jürgen😀@exämple.com', 'no-mail@example.com'].sort());
    const row = (await service.suppressions.list()).find((r) => r.email.startsWith('jürgen'))!;
    expect(row).toMatchObject({ email: 'jürgen😀@exämple.com', reason: 'Spam 🚫' });
    expect(await service.suppressions.remove('NO-MAIL@example.com', 'command')).toBe(true);
    expect(await service.suppressions.isSuppressed('no-mail@example.com')).toBe(false);
  });
});

describe('mailprovider on MariaDB | the webhook guard in the database cache', () => {
  it('a record already received is not claimed again within the replay window; a released claim is', async () => {
    const r = record({ email: 'replay@example.com' });
    const first = await service.guard.claim('msg-1', r);
    expect(first.first).toBe(true);
    expect((await service.guard.claim('msg-1', r)).first).toBe(false);
    expect((await service.guard.claim('MSG-1', r)).first).toBe(true);
    await first.release();
    expect((await service.guard.claim('msg-1', r)).first).toBe(true);
    clock += 60_000;
    expect((await service.guard.claim('msg-1', r)).first).toBe(true);
  });

  it('wrong credentials are counted per address: past the limit the address gets 429, another does not', async () => {
    for (let i = 0; i < 3; i++) {
      await service.guard.checkAddress('192.0.2.1');
      await service.guard.failed('192.0.2.1');
    }
    await expect(service.guard.checkAddress('192.0.2.1')).rejects.toMatchObject({ status: 429, code: 'MAILPROVIDER_TOO_MANY_FAILURES' });
    await expect(service.guard.checkAddress('192.0.2.2')).resolves.toBeUndefined();
  });
});
