/**
 * The table of objects no row holds, on MariaDB (docs/storage.md "Orphans"):
 * the `storage` migration set's MySQL file applied by the runtime migrator;
 * entries listed, claimed (in a transaction that commits or rolls back with
 * the row), forgotten; keys byte-exact (4-byte UTF-8, case); and the orphan
 * sweep removing uploads never attached once they are old enough on the
 * database's UTC clock.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../../runtime/db/index.js';
import { createMigrator } from '../../../runtime/db/migrator/index.js';
import { LocalDisk } from '../../../runtime/storage/local-disk.js';
import { claimPending, expiredPending, forgetPending, isPending, listPending } from '../../../runtime/storage/pending.js';
import { Storage } from '../../../runtime/storage/storage.js';
import { STORAGE_MIGRATIONS_DIR } from '../../../runtime/storage/storage-step.js';
import { sweepOrphans } from '../../../runtime/storage/sweep.js';
import { UrlSigner } from '../../../runtime/storage/url-signer.js';
import { createTestMariaDatabase, type TestDatabase } from '../../support/database.js';
import { TEST_RING } from './support.js';

let testDb: TestDatabase;
let database: Database;
let db: Kysely<any>;
let root: string;
let storage: Storage;
let local: LocalDisk;

beforeAll(async () => {
  testDb = await createTestMariaDatabase('storagemaria');
  database = await connectDatabase({ url: testDb.url, max: 4 });
  db = database.db;
  await createMigrator(database, [{ source: 'storage', dir: STORAGE_MIGRATIONS_DIR }]).migrate();
  root = await mkdtemp(join(tmpdir(), 'bindery-storage-maria-'));
  const signer = new UrlSigner(TEST_RING);
  local = new LocalDisk({ root, baseUrl: 'http://app.test/storage', signer });
  storage = new Storage({
    disks: [local],
    defaultDisk: 'local',
    db,
    signer,
    urlTtlMs: 60_000,
    uploadTtlMs: 60_000,
    orphanAgeMs: 3_600_000,
  });
});
afterAll(async () => {
  await database?.close();
  await testDb?.drop();
  if (root) await rm(root, { recursive: true, force: true });
});
beforeEach(async () => {
  await db.deleteFrom('storage_pending').execute();
});

const rows = () => db.selectFrom('storage_pending').select(['disk', 'key', 'state']).orderBy('key').execute();

describe('Storage pending entries on MariaDB', () => {
  it('the migrator applied the storage set from its mysql/ folder', async () => {
    const applied = await db.selectFrom('bindery_migrations').select(['source', 'name']).where('source', '=', 'storage').execute();
    expect(applied).toEqual([{ source: 'storage', name: '0001_create_storage_pending.sql' }]);
  });

  it('lists, re-marks, claims and forgets entries; keys are byte-exact', async () => {
    const emoji = `uploads/${'ü🗂'.repeat(100)}.png`;
    await listPending(db, { disk: 'local', key: 'a/File.txt', state: 'uploaded' });
    await listPending(db, { disk: 'local', key: 'a/file.txt', state: 'uploaded' });
    await listPending(db, { disk: 'local', key: emoji, state: 'uploaded' });
    expect(await rows()).toHaveLength(3);
    expect(await isPending(db, 'local', 'a/file.txt', 'uploaded')).toBe(true);
    expect(await isPending(db, 'local', 'A/FILE.TXT', 'uploaded')).toBe(false);

    await listPending(db, { disk: 'local', key: 'a/File.txt', state: 'detached' });
    expect(await isPending(db, 'local', 'a/File.txt', 'detached')).toBe(true);
    expect(await claimPending(db, 'local', 'a/File.txt')).toBe(false);
    expect(await claimPending(db, 'local', 'a/file.txt')).toBe(true);
    expect(await claimPending(db, 'local', 'a/file.txt')).toBe(false);
    expect((await rows()).map((r) => r.key)).toEqual(['a/File.txt', emoji].sort());
    expect((await rows()).find((r) => r.key !== 'a/File.txt')!.key).toBe(emoji);

    await forgetPending(db, 'local', emoji);
    expect(await rows()).toEqual([{ disk: 'local', key: 'a/File.txt', state: 'detached' }]);
  });

  it('a claim rolled back with its transaction leaves the entry listed', async () => {
    await listPending(db, { disk: 'local', key: 'k', state: 'uploaded' });
    await expect(
      db.transaction().execute(async (trx) => {
        expect(await claimPending(trx, 'local', 'k')).toBe(true);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await isPending(db, 'local', 'k', 'uploaded')).toBe(true);
  });

  it('the entries to sweep: uploads older than their age, detached ones past their grace, oldest first, limited', async () => {
    await listPending(db, { disk: 'local', key: 'up-old', state: 'uploaded' });
    await listPending(db, { disk: 'local', key: 'up-new', state: 'uploaded' });
    await listPending(db, { disk: 'local', key: 'det-old', state: 'detached' });
    await sql`update storage_pending set created_at = utc_timestamp(6) - interval 2 hour where \`key\` = 'up-old'`.execute(db);
    await sql`update storage_pending set created_at = utc_timestamp(6) - interval 90 second where \`key\` = 'det-old'`.execute(db);
    expect((await expiredPending(db, 3_600_000, 60_000, 10)).map((o) => o.key)).toEqual(['up-old', 'det-old']);
    expect((await expiredPending(db, 3_600_000, 60_000, 1)).map((o) => o.key)).toEqual(['up-old']);
    expect((await expiredPending(db, 3_600_000, 120_000, 10)).map((o) => o.key)).toEqual(['up-old']);
    expect(await expiredPending(db, 3 * 3_600_000, 120_000, 10)).toEqual([]);
  });

  it('a stored upload is listed; the sweep removes it and its object once old enough', async () => {
    const object = await storage.store(Readable.from([Buffer.from('never attached 😶')]));
    expect(await rows()).toEqual([{ disk: 'local', key: object.key, state: 'uploaded' }]);
    expect(await local.exists(object.key)).toBe(true);
    expect(await sweepOrphans(storage)).toEqual({ removed: 0, failed: 0 });
    await sql`update storage_pending set created_at = utc_timestamp(6) - interval 2 day`.execute(db);
    expect(await sweepOrphans(storage)).toEqual({ removed: 1, failed: 0 });
    expect(await local.exists(object.key)).toBe(false);
    expect(await rows()).toEqual([]);
  });
});
