/**
 * Direct uploads (docs/storage.md "Direct uploads"): the upload token binds
 * the purpose, the user who started the upload and the record it is for;
 * confirming it as another user or for another record is 403 and leaves the
 * upload to its owner.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmDirectUpload, createDirectUpload } from '../../../runtime/storage/direct-uploads.js';
import { HttpError } from '../../../runtime/errors/http-error.js';
import { PNG_1X1, storageFixture, type StorageFixture } from './support.js';

let fx: StorageFixture;
beforeAll(async () => {
  fx = await storageFixture();
});
afterAll(async () => {
  await fx?.close();
});

const PURPOSE = 'attachments.upload';

/** Start an upload and put its bytes on the disk, as the client's PUT would. */
async function uploaded(owner: string | null, target: string): Promise<string> {
  const { token } = await createDirectUpload(fx.storage, { purpose: PURPOSE, owner, target, maxBytes: 1024 });
  const { disk, key } = fx.storage.signer.openUploadToken(token);
  await fx.storage.disk(disk).put(key, Readable.from([PNG_1X1]));
  return token;
}

/** The status and message `confirm` is refused with. */
async function refusal(confirm: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = await confirm.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return { status: (error as HttpError).status, message: (error as HttpError).message };
}

describe('Direct uploads | the token is bound to its owner and target', () => {
  it('another user, another record, or no user is 403; the upload stays listed and its owner confirms it', async () => {
    const token = await uploaded('7', 'documents/1');
    const notYours = {
      status: 403,
      message:
        'This upload token is not valid: it was started by another user or for another record. Confirm it as the user and for the record it was started for, or start a new upload.',
    };
    for (const [owner, target] of [
      ['8', 'documents/1'],
      ['7', 'documents/2'],
      [null, 'documents/1'],
      ['8', 'documents/2'],
    ] as const)
      expect(await refusal(confirmDirectUpload(fx.storage, token, { purpose: PURPOSE, owner, target })), `${owner} ${target}`).toEqual(
        notYours,
      );
    expect((await fx.pending()).filter((p) => p.state === 'uploaded')).toHaveLength(1);

    const file = await confirmDirectUpload(fx.storage, token, { purpose: PURPOSE, owner: '7', target: 'documents/1', name: 'a.png' });
    expect(file).toMatchObject({ filename: 'a.png', size: PNG_1X1.length, type: { mime: 'image/png', ext: 'png' } });
  });

  it('an upload started by no one is confirmed by no one only', async () => {
    const token = await uploaded(null, 'inbox');
    expect((await refusal(confirmDirectUpload(fx.storage, token, { purpose: PURPOSE, owner: '1', target: 'inbox' }))).status).toBe(403);
    const file = await confirmDirectUpload(fx.storage, token, { purpose: PURPOSE, owner: null, target: 'inbox' });
    expect(file.size).toBe(PNG_1X1.length);
  });

  it('a token whose owner or target was edited does not verify', async () => {
    const token = await uploaded('7', 'documents/1');
    const [body, signature] = token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown[];
    claims[4] = '8';
    claims[5] = 'documents/2';
    const edited = `${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    expect(await refusal(confirmDirectUpload(fx.storage, edited, { purpose: PURPOSE, owner: '8', target: 'documents/2' }))).toEqual({
      status: 403,
      message: 'This signed URL is not valid: the signature does not match. Ask for a new one.',
    });
  });
});
