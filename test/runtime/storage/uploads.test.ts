/**
 * Uploads streamed to storage while the request is read (docs/storage.md
 * "Uploads", "Files of rows", "Orphans"): limits per field (413 naming it,
 * nothing kept), type by content (422), file names never in keys, flat
 * memory for a file far larger than the heap growth allowed, an unreachable
 * disk (503), and old objects removed only after the commit.
 */
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../../runtime/http/context.js';
import type { UploadedFile } from '../../../runtime/routing/route-table.js';
import { withFiles } from '../../../runtime/storage/file-changes.js';
import { sweepOrphans } from '../../../runtime/storage/sweep.js';
import type { Storage } from '../../../runtime/storage/storage.js';
import { closeAll, startServer, type TestServer } from '../http/support/server.js';
import { field, route } from '../http/support/routes.js';
import { filesUnder, PNG_1X1, s3DiskOf, startS3Server, storageFixture, type S3Server, type StorageFixture } from './support.js';

let fx: StorageFixture;
let s3: S3Server;
let server: TestServer;
/** What the handler saw, and whether the object existed while it ran. */
let seen: { file: UploadedFile; existed: boolean } | undefined;

const upload = route({
  name: 'upload',
  method: 'POST',
  path: '/upload',
  fields: [field('photo', 'file', { form: 'photo' }, ['required', 'max:64', 'mimes:png,jpg']), field('big', 'file', { form: 'big' })],
});

beforeAll(async () => {
  s3 = await startS3Server();
  fx = await storageFixture({ extra: [s3DiskOf(s3)] });
  server = await startServer({
    maxBodyBytes: 512 * 1024 * 1024,
    // The 256 MiB upload below may take a minute on a loaded 2-core machine:
    // the deadline must not be what the test measures.
    requestTimeoutMs: 110_000,
    services: { storage: fx.storage } as unknown as Services,
    routes: [upload],
    handlers: {
      upload: async (input: { photo: UploadedFile }) => {
        const stored = input.photo.stored!;
        seen = { file: input.photo, existed: await fx.storage.disk(stored.disk).exists(stored.key) };
        return { size: input.photo.size, type: input.photo.type, key: stored.key };
      },
    },
  });
});
afterAll(async () => {
  await closeAll();
  await fx?.close();
  await s3?.close();
});

function form(name: string, bytes: Buffer | Blob, filename: string, type = 'application/octet-stream'): FormData {
  const f = new FormData();
  f.append(name, bytes instanceof Blob ? bytes : new Blob([bytes], { type }), filename);
  return f;
}

async function post(body: FormData): Promise<{ status: number; json: any }> {
  const res = await fetch(`${server.url}/upload`, { method: 'POST', body, headers: { accept: 'application/json' } });
  return { status: res.status, json: await res.json() };
}

/** Poll until `check` holds (the request's cleanup runs after the answer). */
async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in 5 s');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('Uploads | streamed to the disk', () => {
  it('a file is on the disk while the handler runs, with its type by content; unattached, it is removed after the answer', async () => {
    const res = await post(form('photo', PNG_1X1, '../../etc/evil.png', 'text/plain'));
    expect(res.status).toBe(200);
    expect(res.json.type).toEqual({ mime: 'image/png', ext: 'png' });
    expect(seen!.existed).toBe(true);
    expect(seen!.file.filename).toBe('evil.png');
    expect(seen!.file.stored!.key).toMatch(/^uploads\/\d{4}\/\d{2}\/[0-9a-f-]{36}$/);
    expect(res.json.key).not.toMatch(/evil|etc|\.\./);
    await until(async () => (await filesUnder(fx.root)).length === 0 && (await fx.pending()).length === 0);
  });

  it('over the field limit: 413 naming the field; the partial object is removed and nothing is listed', async () => {
    const res = await post(form('photo', Buffer.concat([PNG_1X1, Buffer.alloc(200 * 1024)]), 'big.png'));
    expect(res.status).toBe(413);
    expect(res.json.errors).toEqual({ photo: 'The photo field must not be greater than 64 kilobytes.' });
    await until(async () => (await filesUnder(fx.root)).length === 0 && (await fx.pending()).length === 0);
  });

  it('a wrong type by content is 422 on the field, whatever its name and declared type; nothing is kept', async () => {
    const res = await post(form('photo', Buffer.from('just some text, not an image'), 'photo.png', 'image/png'));
    expect(res.status).toBe(422);
    expect(res.json.errors).toEqual({ photo: 'The photo field must be a file of type: png, jpg.' });
    await until(async () => (await filesUnder(fx.root)).length === 0 && (await fx.pending()).length === 0);
  });

  it('memory stays flat: a 256 MiB file while the live heap and buffers grow by less than 32 MiB', async () => {
    // The client is curl in its own process, so only the server's memory is
    // measured. Each sample follows a full collection: what is counted is what
    // the server holds, not garbage a busy machine has not reclaimed yet
    // (which differs between Node versions). A buffered upload would hold the
    // whole file.
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const big = await bigFile(chunk, 256);
    const png = await bigFile(PNG_1X1, 1);
    const before = liveMemory();
    let peak = before;
    // A full collection stops the server's process while it runs: sampled
    // often, it would starve the upload it measures. A buffered upload would
    // hold the file for seconds, long enough for any sample to see it.
    const timer = setInterval(() => {
      peak = Math.max(peak, liveMemory());
    }, 500);
    const { execFile } = await import('node:child_process');
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        'curl',
        [
          '-sS',
          '-w',
          '\n%{http_code}',
          '-H',
          'accept: application/json',
          '-F',
          `photo=@${png};type=image/png`,
          '-F',
          `big=@${big}`,
          `${server.url}/upload`,
        ],
        { maxBuffer: 1024 * 1024 },
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      ),
    );
    clearInterval(timer);
    // Status and whole body, so a refusal (408, 503) shows its detail.
    const [body, status] = [out.slice(0, out.lastIndexOf('\n')), out.slice(out.lastIndexOf('\n') + 1)];
    expect(`${status} ${body}`).toMatch(/^200 /);
    expect(JSON.parse(body).type).toEqual({ mime: 'image/png', ext: 'png' });
    expect(peak - before).toBeLessThan(32 * 1024 * 1024);
  }, 180_000);
});

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Heap and buffers in use after a full collection, in bytes. */
function liveMemory(): number {
  collectGarbage();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** A file of `count` copies of `chunk` in a temporary folder; its path. */
async function bigFile(chunk: Buffer, count: number): Promise<string> {
  const { createWriteStream } = await import('node:fs');
  const { mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { pipeline } = await import('node:stream/promises');
  const path = join(await mkdtemp(join(tmpdir(), 'bindery-big-')), 'upload.bin');
  await pipeline(
    Readable.from(
      (function* () {
        for (let i = 0; i < count; i++) yield chunk;
      })(),
    ),
    createWriteStream(path),
  );
  return path;
}

describe('Uploads | storage unreachable', () => {
  it('503 problem details, and the handler never runs', async () => {
    const dead = await storageFixture({ extra: [s3DiskOf(s3, 'http://127.0.0.1:1')], defaultDisk: 's3' });
    let ran = false;
    const s = await startServer({
      services: { storage: dead.storage } as unknown as Services,
      routes: [upload],
      handlers: {
        upload: () => {
          ran = true;
          return {};
        },
      },
    });
    try {
      const res = await fetch(`${s.url}/upload`, {
        method: 'POST',
        body: form('photo', PNG_1X1, 'p.png'),
        headers: { accept: 'application/json' },
      });
      expect(res.status).toBe(503);
      const body = (await res.json()) as { detail: string };
      expect(body).toMatchObject({ status: 503, title: 'Service Unavailable' });
      expect(body.detail).toContain('The storage disk "s3" is unavailable');
      expect(ran).toBe(false);
      // The disk could not even be told to delete: the upload stays listed for the orphan sweep.
      expect((await dead.pending()).map((p) => p.state)).toEqual(['uploaded']);
    } finally {
      await dead.close();
    }
  });
});

describe('Files of rows | the old object goes only after the commit', () => {
  async function stored(storage: Storage, text: string): Promise<UploadedFile> {
    const o = await storage.store(Readable.from([Buffer.from(text)]));
    return {
      filename: 'a.txt',
      mimetype: 'text/plain',
      encoding: '7bit',
      size: o.size,
      checksum: o.checksum,
      type: o.type,
      dimensions: null,
      data: null,
      stored: { disk: o.disk, key: o.key },
    };
  }

  it('replace: the old object exists until the transaction commits, then it is gone; the new one is attached (not listed)', async () => {
    await sql`create table if not exists things (id int primary key, file jsonb)`.execute(fx.db);
    const first = await stored(fx.storage, 'one');
    await withFiles(fx.storage, fx.db, async (trx, files) => {
      await trx
        .insertInto('things')
        .values({ id: 1, file: await files.attach(first) })
        .execute();
    });
    const second = await stored(fx.storage, 'two');
    let existedBeforeCommit = false;
    await withFiles(fx.storage, fx.db, async (trx, files) => {
      const old = await trx.selectFrom('things').select('file').where('id', '=', 1).forUpdate().executeTakeFirstOrThrow();
      await trx
        .updateTable('things')
        .set({ file: await files.attach(second) })
        .where('id', '=', 1)
        .execute();
      files.detach(old.file);
      existedBeforeCommit = await fx.local.exists(first.stored!.key);
    });
    expect(existedBeforeCommit).toBe(true);
    expect(await fx.local.exists(first.stored!.key)).toBe(false);
    expect(await fx.local.exists(second.stored!.key)).toBe(true);
    expect(await fx.pending()).toEqual([]);
  });

  it('a rolled-back delete keeps the object; the sweep removes uploads never attached once they are old enough', async () => {
    const row = await fx.db.selectFrom('things').select('file').where('id', '=', 1).executeTakeFirstOrThrow();
    await expect(
      withFiles(fx.storage, fx.db, async (trx, files) => {
        await trx.deleteFrom('things').where('id', '=', 1).execute();
        files.detach(row.file);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await fx.local.exists(row.file.key)).toBe(true);
    const orphan = await stored(fx.storage, 'never attached');
    expect(await sweepOrphans(fx.storage)).toEqual({ removed: 0, failed: 0 });
    await sql`update storage_pending set created_at = now() - interval '2 days'`.execute(fx.db);
    expect(await sweepOrphans(fx.storage)).toEqual({ removed: 1, failed: 0 });
    expect(await fx.local.exists(orphan.stored!.key)).toBe(false);
    expect(await fx.local.exists(row.file.key)).toBe(true);
  });
});
