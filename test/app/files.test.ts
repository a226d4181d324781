/**
 * Files in the reference app (docs/storage.md "The reference app"), on the
 * local disk and on a real S3-compatible server: the avatar (session,
 * multipart, png/jpeg/webp by content, 2 MB), shown on the dashboard and in
 * GET /api/me; document attachments (token, multipart, 50 MB; only the
 * owner), listed, removed after the commit, audited without bytes; direct
 * uploads with their confirm step; signed URLs expired and tampered.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../generated/client.js';
import type { Storage } from '../../runtime/storage/index.js';
import { BROWSER } from '../runtime/auth/support/client.js';
import { PNG_1X1, startS3Server, type S3Server } from '../runtime/storage/support.js';
import { bearerFor, bootReferenceApp, makeAccount, signIn, type ReferenceApp } from './tokens-support.js';

/** The path and query of a URL made on APP_URL (the tests reach the app on its own port). */
const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

describe.each(['local', 's3'] as const)('Files | the reference app on the %s disk', (diskName) => {
  let a: ReferenceApp;
  let s3: S3Server | undefined;
  let root: string;
  let storage: Storage;
  /** Fetch a signed URL: the app's route for the local disk, the S3 server itself for a presigned URL. */
  const download = (url: string) => fetch(diskName === 'local' ? `${a.url}${pathOf(url)}` : url);

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'bindery-app-files-'));
    if (diskName === 's3') s3 = await startS3Server();
    a = await bootReferenceApp(`files_${diskName}`, { STORAGE_LOCAL_ROOT: root, STORAGE_DISK: diskName, ...(s3?.env ?? {}) });
    storage = a.t.running.services.storage as Storage;
  });
  afterAll(async () => {
    await a?.close();
    await s3?.close();
    await rm(root, { recursive: true, force: true });
  });

  async function avatarPost(c: { cookies: Map<string, string>; token: string | undefined }, file: Blob, name: string) {
    const form = new FormData();
    form.append('avatar', file, name);
    return fetch(`${a.url}/user/avatar`, {
      method: 'POST',
      body: form,
      headers: {
        accept: 'application/json',
        cookie: [...c.cookies].map(([n, v]) => `${n}=${v}`).join('; '),
        'x-csrf-token': c.token ?? '',
      },
    });
  }

  it('POST /user/avatar: 200 with a signed URL; the dashboard and GET /api/me show it; replacing removes the old file', async () => {
    const user = await makeAccount(a, { verified: true });
    const c = await signIn(a, user);
    await c.page('/dashboard');
    const res = await avatarPost(c, new Blob([PNG_1X1], { type: 'text/plain' }), '../../me.png');
    expect(res.status).toBe(200);
    const { avatar_url } = (await res.json()) as { avatar_url: string };
    const got = await download(avatar_url);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('content-disposition')).toBe('inline; filename="me.png"');
    if (diskName === 'local') expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await got.arrayBuffer()).equals(PNG_1X1)).toBe(true);

    const row = await a.db.selectFrom('users').select('avatar').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.avatar).toMatchObject({ disk: diskName, name: 'me.png', size: PNG_1X1.length, type: 'image/png' });
    expect(row.avatar!.key).not.toContain('me.png');

    const page = await c.page('/dashboard');
    expect(page.body).toMatch(/<img id="avatar" src="[^"]+"/);
    const token = await bearerFor(a.t, user.id, ['profile:read']);
    const me = await fetch(`${a.url}/api/me`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    const meJson = (await me.json()) as { avatar_url: string };
    expect((await download(meJson.avatar_url)).status).toBe(200);

    const again = await avatarPost(c, new Blob([PNG_1X1]), 'second.png');
    expect(again.status).toBe(200);
    expect(await storage.disk(diskName).exists(row.avatar!.key)).toBe(false);
  });

  it('a signed download answers one byte range with 206; a range outside the file is 416; If-Range and several ranges get the whole file', async () => {
    const user = await makeAccount(a, { verified: true });
    const c = await signIn(a, user);
    await c.page('/dashboard');
    const { avatar_url } = (await (await avatarPost(c, new Blob([PNG_1X1]), 'range.png')).json()) as { avatar_url: string };
    const url = diskName === 'local' ? `${a.url}${pathOf(avatar_url)}` : avatar_url;
    const size = PNG_1X1.length;

    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    if (diskName === 'local') expect(whole.headers.get('accept-ranges')).toBe('bytes');
    await whole.arrayBuffer();

    const first = await fetch(url, { headers: { range: 'bytes=0-9' } });
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-9/${size}`);
    expect(first.headers.get('content-length')).toBe('10');
    expect(Buffer.from(await first.arrayBuffer()).equals(PNG_1X1.subarray(0, 10))).toBe(true);

    // The rest is bindery's route; a presigned S3 URL answers ranges as the S3 server does.
    if (diskName === 'local') {
      const tail = await fetch(url, { headers: { range: 'bytes=-5' } });
      expect(tail.status).toBe(206);
      expect(tail.headers.get('content-range')).toBe(`bytes ${size - 5}-${size - 1}/${size}`);
      expect(Buffer.from(await tail.arrayBuffer()).equals(PNG_1X1.subarray(size - 5))).toBe(true);

      const outside = await fetch(url, { headers: { range: `bytes=${size + 10}-` } });
      expect(outside.status).toBe(416);
      expect(outside.headers.get('content-range')).toBe(`bytes */${size}`);
      await outside.arrayBuffer();

      // No validator to compare If-Range with, and no multipart answers: the whole file, 200.
      const conditional = await fetch(url, { headers: { range: 'bytes=0-9', 'if-range': '"some-etag"' } });
      expect(conditional.status).toBe(200);
      expect(Buffer.from(await conditional.arrayBuffer()).equals(PNG_1X1)).toBe(true);
      const several = await fetch(url, { headers: { range: 'bytes=0-1, 20-30' } });
      expect(several.status).toBe(200);
      expect(Buffer.from(await several.arrayBuffer()).equals(PNG_1X1)).toBe(true);
      const malformed = await fetch(url, { headers: { range: 'bytes=abc' } });
      expect(malformed.status).toBe(200);
      await malformed.arrayBuffer();
    }
  });

  it('POST /user/avatar: a text file named .png is 422; over 2 MB is 413 naming the field; nothing is kept', async () => {
    const user = await makeAccount(a, { verified: true });
    const c = await signIn(a, user);
    await c.page('/dashboard');
    const wrong = await avatarPost(c, new Blob(['not a picture at all'], { type: 'image/png' }), 'me.png');
    expect(wrong.status).toBe(422);
    expect(((await wrong.json()) as { errors: unknown }).errors).toEqual({
      avatar: 'The avatar field must be a file of type: png, jpg, webp.',
    });
    const big = await avatarPost(c, new Blob([PNG_1X1, Buffer.alloc(2 * 1024 * 1024)]), 'big.png');
    expect(big.status).toBe(413);
    expect(((await big.json()) as { errors: unknown }).errors).toEqual({
      avatar: 'The avatar field must not be greater than 2048 kilobytes.',
    });
    const deadline = Date.now() + 5000;
    while ((await sql`select 1 from storage_pending`.execute(a.db)).rows.length > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect((await sql`select 1 from storage_pending`.execute(a.db)).rows).toEqual([]);
    expect((await a.db.selectFrom('users').select('avatar').where('id', '=', user.id).executeTakeFirstOrThrow()).avatar).toBeNull();
  });

  it('signed URLs: tampered or expired is 403', async () => {
    const ref = {
      disk: diskName,
      key: 'uploads/2026/01/00000000-0000-0000-0000-000000000000',
      name: 'x.png',
      size: 1,
      type: 'image/png',
      checksum: '0',
    };
    const url = (await storage.url(ref))!;
    const tampered = url.replace(/(signature|Signature)=([A-Za-z0-9_-])/, (_m, k: string, c: string) => `${k}=${c === 'A' ? 'B' : 'A'}`);
    expect((await download(tampered)).status).toBe(403);
    if (diskName === 'local') {
      const u = new URL(url);
      const expires = Math.floor(Date.now() / 1000) - 10;
      const signature = storage.signer.sign(`download\nlocal\n${ref.key}\n${ref.name}\n${ref.type}\n${expires}`);
      u.searchParams.set('expires', String(expires));
      u.searchParams.set('signature', signature);
      const expired = await fetch(`${a.url}${pathOf(u.toString())}`, { headers: { accept: 'application/json' } });
      expect(expired.status).toBe(403);
      expect(((await expired.json()) as { detail: string }).detail).toBe(
        'This signed URL is not valid: it has expired. Ask for a new one.',
      );
    }
  });

  it('attachments: 201 with a signed URL, listed with the document, only for its owner, removed after the commit, audited without bytes', async () => {
    const owner = 9100 + (diskName === 'local' ? 0 : 1);
    const token = await bearerFor(a.t, owner);
    const other = await bearerFor(a.t, owner + 10);
    const api = (path: string, init: RequestInit = {}, t = token) =>
      fetch(`${a.url}${path}`, { ...init, headers: { authorization: `Bearer ${t}`, accept: 'application/json', ...(init.headers ?? {}) } });
    const doc = (await (
      await api('/api/documents', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ slug: `d-${diskName}`, title: 'With files' }),
      })
    ).json()) as { id: number };
    const form = new FormData();
    form.append('file', new Blob(['%PDF-1.4\n% a small pdf\n']), 'report.pdf');
    const res = await api(`/api/documents/${doc.id}/attachments`, { method: 'POST', body: form });
    expect(res.status).toBe(201);
    const attachment = (await res.json()) as {
      id: number;
      file: { name: string; content_type: string; size: number; url: string; checksum: string };
    };
    expect(attachment.file).toMatchObject({ name: 'report.pdf', content_type: 'application/pdf', size: 23 });
    const got = await download(attachment.file.url);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-disposition')).toBe('attachment; filename="report.pdf"');

    const list = (await (await api(`/api/documents/${doc.id}/attachments`)).json()) as Array<{ id: number; file: { url: string } }>;
    expect(list.map((x) => x.id)).toEqual([attachment.id]);
    expect(list[0]!.file.url).toMatch(/^https?:/);

    const foreign = new FormData();
    foreign.append('file', new Blob(['x']), 'x.txt');
    expect((await api(`/api/documents/${doc.id}/attachments`, { method: 'POST', body: foreign }, other)).status).toBe(404);
    expect((await api(`/api/documents/${doc.id}/attachments`, {}, other)).status).toBe(404);

    const entry = await sql<{
      changes: { new: { file: Record<string, unknown> } };
    }>`select changes from audit_log where subject_type = 'document_attachments' and action = 'created' and subject_id = ${String(attachment.id)}`.execute(
      a.db,
    );
    expect(entry.rows[0]!.changes.new.file).toEqual({
      disk: diskName,
      key: expect.any(String),
      name: 'report.pdf',
      size: 23,
      type: 'application/pdf',
      checksum: attachment.file.checksum,
    });

    const key = (await a.db.selectFrom('document_attachments').select('file').where('id', '=', attachment.id).executeTakeFirstOrThrow())
      .file.key;
    expect((await api(`/api/documents/${doc.id}/attachments/${attachment.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await storage.disk(diskName).exists(key)).toBe(false);
    expect((await download(attachment.file.url)).status).toBe(diskName === 'local' ? 404 : 404);
  });

  it('attachments: a name with a right-to-left override is kept, listed and downloaded without it', async () => {
    const token = await bearerFor(a.t, 9500 + (diskName === 'local' ? 0 : 1));
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${a.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(init.headers ?? {}) },
      });
    const doc = (await (
      await api('/api/documents', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ slug: `bidi-${diskName}`, title: 'Bidi' }),
      })
    ).json()) as { id: number };
    const form = new FormData();
    form.append('file', new Blob(['MZ not really a program']), 'invoice\u202Efdp.exe');
    const res = await api(`/api/documents/${doc.id}/attachments`, { method: 'POST', body: form });
    expect(res.status).toBe(201);
    const attachment = (await res.json()) as { id: number; file: { name: string; url: string } };
    expect(attachment.file.name).toBe('invoicefdp.exe');
    const row = await a.db.selectFrom('document_attachments').select('file').where('id', '=', attachment.id).executeTakeFirstOrThrow();
    expect(row.file.name).toBe('invoicefdp.exe');
    const got = await download(attachment.file.url);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-disposition')).toBe('attachment; filename="invoicefdp.exe"');
    await got.arrayBuffer();

    // The direct upload's name, given as JSON, is cleaned the same way.
    const start = (await (
      await api(`/api/documents/${doc.id}/attachments/uploads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
    ).json()) as { url: string; method: string; headers: Record<string, string>; token: string };
    const put = await fetch(diskName === 'local' ? `${a.url}${pathOf(start.url)}` : start.url, {
      method: start.method,
      headers: start.headers,
      body: PNG_1X1,
    });
    expect(put.status).toBeLessThan(300);
    const confirm = await api(`/api/documents/${doc.id}/attachments/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: start.token, name: 'photo\u2067\u200B\u202Egnp.exe' }),
    });
    expect(confirm.status).toBe(201);
    expect(((await confirm.json()) as { file: { name: string } }).file.name).toBe('photognp.exe');
  });

  it('the typed client sends a file (a Blob) and gets the attachment with its signed URL', async () => {
    const token = await bearerFor(a.t, 9400 + (diskName === 'local' ? 0 : 1));
    const client = createClient({ baseUrl: a.url, token });
    const doc = await client.documents.create({ slug: `client-${diskName}`, title: 'Typed' });
    const attachment = await client.attachments.create({ id: doc.id, file: new File([PNG_1X1], 'pic.png') });
    expect(attachment.file).toMatchObject({ name: 'pic.png', content_type: 'image/png', size: PNG_1X1.length });
    expect((await download(attachment.file.url!)).status).toBe(200);
    const listed = await client.attachments.list({ id: doc.id });
    expect(listed.map((x) => x.id)).toEqual([attachment.id]);
  });

  it('direct upload: a signed URL to PUT the bytes, then confirm (size and type checked); a second confirm is 422', async () => {
    const token = await bearerFor(a.t, 9200 + (diskName === 'local' ? 0 : 1));
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${a.url}${path}`, {
        ...init,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          'content-type': 'application/json',
          ...(init.headers ?? {}),
        },
      });
    const doc = (await (
      await api('/api/documents', { method: 'POST', body: JSON.stringify({ slug: `direct-${diskName}`, title: 'Direct' }) })
    ).json()) as { id: number };
    const start = await api(`/api/documents/${doc.id}/attachments/uploads`, { method: 'POST', body: '{}' });
    expect(start.status).toBe(201);
    const upload = (await start.json()) as { url: string; method: string; headers: Record<string, string>; token: string };
    const target = diskName === 'local' ? `${a.url}${pathOf(upload.url)}` : upload.url;
    const put = await fetch(target, { method: upload.method, headers: upload.headers, body: PNG_1X1 });
    expect(put.status, await put.clone().text()).toBeLessThan(300);
    const confirm = await api(`/api/documents/${doc.id}/attachments/confirm`, {
      method: 'POST',
      body: JSON.stringify({ token: upload.token, name: 'big.png' }),
    });
    expect(confirm.status).toBe(201);
    expect(((await confirm.json()) as { file: unknown }).file).toMatchObject({
      name: 'big.png',
      content_type: 'image/png',
      size: PNG_1X1.length,
    });
    const again = await api(`/api/documents/${doc.id}/attachments/confirm`, {
      method: 'POST',
      body: JSON.stringify({ token: upload.token }),
    });
    expect(again.status).toBe(422);
    const forged = await api(`/api/documents/${doc.id}/attachments/confirm`, {
      method: 'POST',
      body: JSON.stringify({ token: `${upload.token.slice(0, -2)}AA` }),
    });
    expect(forged.status).toBe(403);
  });

  it('direct upload: the token is bound to its user and document; another user, or another document, is 403 and the upload stays usable', async () => {
    const base = 9600 + (diskName === 'local' ? 0 : 10);
    const alice = await bearerFor(a.t, base);
    const bob = await bearerFor(a.t, base + 1);
    const api = (token: string, path: string, body: unknown) =>
      fetch(`${a.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const newDoc = async (token: string, slug: string) =>
      ((await (await api(token, '/api/documents', { slug: `${slug}-${diskName}`, title: slug })).json()) as { id: number }).id;
    const aliceDoc = await newDoc(alice, 'alice-doc');
    const aliceOther = await newDoc(alice, 'alice-other');
    const bobDoc = await newDoc(bob, 'bob-doc');

    const upload = (await (await api(alice, `/api/documents/${aliceDoc}/attachments/uploads`, {})).json()) as {
      url: string;
      method: string;
      headers: Record<string, string>;
      token: string;
    };
    const put = await fetch(diskName === 'local' ? `${a.url}${pathOf(upload.url)}` : upload.url, {
      method: upload.method,
      headers: upload.headers,
      body: PNG_1X1,
    });
    expect(put.status).toBeLessThan(300);

    const byBob = await api(bob, `/api/documents/${bobDoc}/attachments/confirm`, { token: upload.token, name: 'stolen.png' });
    expect(byBob.status).toBe(403);
    expect(byBob.headers.get('content-type')).toContain('application/problem+json');
    expect(((await byBob.json()) as { detail: string }).detail).toBe(
      'This upload token is not valid: it was started by another user or for another record. Confirm it as the user and for the record it was started for, or start a new upload.',
    );
    const elsewhere = await api(alice, `/api/documents/${aliceOther}/attachments/confirm`, { token: upload.token });
    expect(elsewhere.status).toBe(403);
    await elsewhere.arrayBuffer();
    expect(await a.db.selectFrom('document_attachments').select('id').where('document_id', 'in', [bobDoc, aliceOther]).execute()).toEqual(
      [],
    );

    const mine = await api(alice, `/api/documents/${aliceDoc}/attachments/confirm`, { token: upload.token, name: 'mine.png' });
    expect(mine.status).toBe(201);
    expect(((await mine.json()) as { file: { name: string } }).file.name).toBe('mine.png');
  });
});

describe('Files | the storage unreachable', () => {
  it('an attachment upload is 503 problem details and no row is written', async () => {
    const root = await mkdtemp(join(tmpdir(), 'bindery-app-files-'));
    const a = await bootReferenceApp('files_down', {
      STORAGE_LOCAL_ROOT: root,
      STORAGE_DISK: 's3',
      STORAGE_S3_BUCKET: 'nowhere',
      STORAGE_S3_ENDPOINT: 'http://127.0.0.1:1',
      STORAGE_S3_FORCE_PATH_STYLE: 'true',
      STORAGE_S3_ACCESS_KEY_ID: 'x',
      STORAGE_S3_SECRET_ACCESS_KEY: 'y',
    });
    try {
      const token = await bearerFor(a.t, 9300);
      const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
      const doc = (await (
        await fetch(`${a.url}/api/documents`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ slug: 'down', title: 'Down' }),
        })
      ).json()) as { id: number };
      const form = new FormData();
      form.append('file', new Blob(['hello']), 'a.txt');
      const res = await fetch(`${a.url}/api/documents/${doc.id}/attachments`, { method: 'POST', headers, body: form });
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(await a.db.selectFrom('document_attachments').selectAll().execute()).toEqual([]);
    } finally {
      await a.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});

void BROWSER;
