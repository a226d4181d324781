/**
 * Support of the storage tests: a real S3-compatible server (`@20minutes/s3rver`,
 * pure JavaScript, started on a free port with its files in a temporary
 * folder) and a Storage service on a fresh database with the `storage`
 * migration applied (docs/storage.md "Testing").
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import S3rver from '@20minutes/s3rver';
import { KeyRing } from '../../../runtime/crypto/key-ring.js';
import { LocalDisk } from '../../../runtime/storage/local-disk.js';
import { S3Disk } from '../../../runtime/storage/s3-disk.js';
import { Storage } from '../../../runtime/storage/storage.js';
import { STORAGE_MIGRATIONS_DIR } from '../../../runtime/storage/storage-step.js';
import { UrlSigner } from '../../../runtime/storage/url-signer.js';
import type { Disk } from '../../../runtime/storage/disk.js';
import { createTestDatabase } from '../../support/database.js';

/** A running S3-compatible server. */
export interface S3Server {
  /** `http://127.0.0.1:<port>`. */
  readonly endpoint: string;
  readonly bucket: string;
  /** Settings of the s3 disk pointing at it. */
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

/** Start an S3-compatible server with one bucket (credentials `S3RVER`/`S3RVER`). */
export async function startS3Server(bucket = 'bindery-test'): Promise<S3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'bindery-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  const info = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${info.port}`;
  return {
    endpoint,
    bucket,
    env: {
      STORAGE_S3_BUCKET: bucket,
      STORAGE_S3_ENDPOINT: endpoint,
      STORAGE_S3_FORCE_PATH_STYLE: 'true',
      STORAGE_S3_ACCESS_KEY_ID: 'S3RVER',
      STORAGE_S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** The s3 disk of `server`. */
export function s3DiskOf(server: S3Server, endpoint = server.endpoint): S3Disk {
  return new S3Disk({
    bucket: server.bucket,
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    timeoutMs: 3000,
  });
}

/** A storage service on a fresh database. */
export interface StorageFixture {
  readonly storage: Storage;
  readonly db: Kysely<any>;
  readonly local: LocalDisk;
  readonly root: string;
  /** Rows of `storage_pending`. */
  pending(): Promise<Array<{ disk: string; key: string; state: string }>>;
  close(): Promise<void>;
}

/** The test key ring (a fixed APP_KEY). */
export const TEST_RING = new KeyRing(Buffer.alloc(32, 7));

/** Make a storage service: the local disk in a temporary folder, `extra` disks, new files on `defaultDisk`. */
export async function storageFixture(options: { extra?: Disk[]; defaultDisk?: string; now?: () => number } = {}): Promise<StorageFixture> {
  const database = await createTestDatabase('storage');
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  // Dropping the test database ends its sessions; an idle client then emits
  // `error`, which without a listener is an uncaught exception.
  pool.on('error', () => {});
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  const postgresDir = join(STORAGE_MIGRATIONS_DIR, 'postgres');
  for (const file of (await readdir(postgresDir)).sort()) await sql.raw(await readFile(join(postgresDir, file), 'utf8')).execute(db);
  const root = await mkdtemp(join(tmpdir(), 'bindery-storage-'));
  const signer = new UrlSigner(TEST_RING, options.now);
  const local = new LocalDisk({ root, baseUrl: 'http://app.test/storage', signer });
  const storage = new Storage({
    disks: [local, ...(options.extra ?? [])],
    defaultDisk: options.defaultDisk ?? 'local',
    db,
    signer,
    urlTtlMs: 60_000,
    uploadTtlMs: 60_000,
    orphanAgeMs: 3_600_000,
    ...(options.now ? { now: options.now } : {}),
  });
  return {
    storage,
    db,
    local,
    root,
    async pending() {
      const result = await sql<{
        disk: string;
        key: string;
        state: string;
      }>`select disk, key, state from storage_pending order by key`.execute(db);
      return result.rows;
    },
    async close() {
      await db.destroy();
      await database.drop();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Every file under `root` (relative paths), temporary files included. */
export async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? (e as { path?: string }).path ?? '', e.name).slice(root.length + 1))
    .sort();
}

/** A 1×1 PNG. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
