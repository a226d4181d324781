/**
 * Storage disks (docs/storage.md "Disks"): the same operations on the local
 * disk and on a real S3-compatible server; presigned URLs, expired and
 * tampered, against that server.
 */
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Disk } from '../../../runtime/storage/disk.js';
import { SizeLimitError, StorageObjectMissingError, StorageUnavailableError } from '../../../runtime/storage/errors.js';
import { Inspector } from '../../../runtime/storage/inspect.js';
import { filesUnder, s3DiskOf, startS3Server, storageFixture, type S3Server, type StorageFixture } from './support.js';

let s3: S3Server;
let fx: StorageFixture;
let disks: Record<string, Disk>;
beforeAll(async () => {
  s3 = await startS3Server();
  fx = await storageFixture();
  disks = { local: fx.local, s3: s3DiskOf(s3) };
});
afterAll(async () => {
  await fx?.close();
  await s3?.close();
});

describe.each(['local', 's3'])('Disk | %s', (name) => {
  it('puts a stream, gets it back, tells its size, deletes it', async () => {
    const disk = disks[name]!;
    const key = `tests/${name}/a.txt`;
    await disk.put(key, Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(await disk.exists(key)).toBe(true);
    expect(await disk.head(key)).toEqual({ size: 11 });
    expect(await text(await disk.get(key))).toBe('hello world');
    await disk.delete(key);
    expect(await disk.exists(key)).toBe(false);
    expect(await disk.head(key)).toBeNull();
    await expect(disk.get(key)).rejects.toBeInstanceOf(StorageObjectMissingError);
    await disk.delete(key); // deleting nothing is fine
  });

  it('a put whose stream fails (over a limit) leaves nothing at the key', async () => {
    const disk = disks[name]!;
    const key = `tests/${name}/too-big.bin`;
    const source = Readable.from(
      (function* () {
        for (let i = 0; i < 40; i++) yield Buffer.alloc(256 * 1024, i);
      })(),
    );
    await expect(disk.put(key, source.pipe(new Inspector(6 * 1024 * 1024)))).rejects.toBeInstanceOf(SizeLimitError);
    expect(await disk.exists(key)).toBe(false);
    if (name === 'local') expect(await filesUnder(fx.root)).toEqual([]);
  });

  it('refuses keys that could leave the disk', async () => {
    await expect(disks[name]!.put('../escape', Readable.from(['x']))).rejects.toThrow(/not valid/);
    await expect(disks[name]!.head('a/../../b')).rejects.toThrow(/not valid/);
  });
});

describe('Disk | s3 presigned URLs', () => {
  it('a presigned download works; tampered or expired it is 403', async () => {
    const disk = disks.s3!;
    await disk.put('tests/presigned.png', Readable.from([Buffer.from('PNGDATA')]));
    const url = await disk.downloadUrl('tests/presigned.png', { expiresInMs: 60_000, name: 'me.png', contentType: 'image/png' });
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/png');
    expect(ok.headers.get('content-disposition')).toContain('inline; filename="me.png"');
    expect(await ok.text()).toBe('PNGDATA');
    const tampered = await fetch(url.replace(/X-Amz-Signature=([0-9a-f])/, (_m, c: string) => `X-Amz-Signature=${c === '0' ? '1' : '0'}`));
    expect(tampered.status).toBe(403);
    const short = await disk.downloadUrl('tests/presigned.png', { expiresInMs: 1000, name: 'me.png', contentType: 'image/png' });
    const deadline = Date.now() + 5000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await fetch(short)).status;
    }
    expect(status).toBe(403);
  });

  it('a presigned upload PUT stores the bytes', async () => {
    const disk = disks.s3!;
    const target = await disk.uploadUrl('tests/direct.bin', { expiresInMs: 60_000, token: 'unused' });
    const res = await fetch(target.url, { method: target.method, headers: target.headers, body: 'direct bytes' });
    expect(res.status).toBe(200);
    expect(await text(await disk.get('tests/direct.bin'))).toBe('direct bytes');
  });

  it('an unreachable server is 503 (StorageUnavailableError), not a hang', async () => {
    const dead = s3DiskOf(s3, 'http://127.0.0.1:1');
    await expect(dead.put('tests/x', Readable.from(['x']))).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(dead.head('tests/x')).rejects.toMatchObject({ status: 503 });
  });
});
