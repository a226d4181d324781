/**
 * Hostile input that used to reach PostgreSQL and come back as a 500
 * (docs/reliability.md): U+0000 in any text, at binding, for every source;
 * forged history cursors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerFor, bootReferenceApp, type ReferenceApp } from '../app/tokens-support.js';

let a: ReferenceApp;
let bearer: string;
let documentId: number;

beforeAll(async () => {
  a = await bootReferenceApp('hostile');
  bearer = await bearerFor(a.t, 1);
  const res = await fetch(`${a.url}/api/documents`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${bearer}` },
    body: JSON.stringify({ slug: 'one', title: 'One' }),
  });
  expect(res.status).toBe(201);
  documentId = ((await res.json()) as { id: number }).id;
});
afterAll(async () => {
  await a?.close();
});

const json = { 'content-type': 'application/json', accept: 'application/json' };

async function problem(res: Response): Promise<{ status: number; errors?: Record<string, string>; request_id?: string }> {
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.headers.get('x-request-id')).toBeTruthy();
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  return res.json() as Promise<any>;
}

describe('Binder | U+0000 in any text is a 422 field error before the handler', () => {
  it('the login email, without signing in', async () => {
    const res = await fetch(`${a.url}/login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'a\u0000b@x.y', password: 'x' }),
    });
    expect(res.status).toBe(422);
    expect((await problem(res)).errors).toEqual({ email: 'The email field must not contain a NUL character.' });
  });

  it('a note title from JSON, and a tag inside a list; nothing is stored', async () => {
    const res = await fetch(`${a.url}/notes`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ title: 'x\u0000', tags: ['ok', 'b\u0000d'] }),
    });
    expect(res.status).toBe(422);
    expect((await problem(res)).errors).toEqual({
      title: 'The title field must not contain a NUL character.',
      tags: 'The tags field must not contain a NUL character.',
    });
    expect(await a.db.selectFrom('notes').select('id').execute()).toEqual([]);
  });

  it('a form field (percent-encoded %00), with a valid session and CSRF token', async () => {
    const page = await fetch(`${a.url}/register`);
    const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
    const token = /name="_token" value="([^"]+)"/.exec(await page.text())![1]!;
    const res = await fetch(`${a.url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', cookie },
      body: `_token=${encodeURIComponent(token)}&name=a%00b&email=n%40x.y&password=correct+horse+battery&password_confirmation=correct+horse+battery`,
    });
    expect(res.status).toBe(422);
    expect((await problem(res)).errors).toMatchObject({ name: 'The name field must not contain a NUL character.' });
    expect(await a.db.selectFrom('users').select('id').where('email', '=', 'n@x.y').execute()).toEqual([]);
  });

  it('a query value and a path value', async () => {
    const history = await fetch(`${a.url}/api/documents/${documentId}/history?cursor=%00`, {
      headers: { accept: 'application/json', authorization: `Bearer ${bearer}` },
    });
    expect(history.status).toBe(422);
    expect((await problem(history)).errors).toEqual({ cursor: 'The cursor field must not contain a NUL character.' });
    const path = await fetch(`${a.url}/auth/a%00b/redirect`, { headers: { accept: 'application/json' } });
    expect(path.status).toBe(422);
    expect((await problem(path)).errors).toEqual({ provider: 'The provider field must not contain a NUL character.' });
  });
});

describe('documents.history | a forged cursor is 400 with errors.cursor', () => {
  const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  it.each([
    ['an impossible date', forged(['2024-13-45T25:61:61Z', 0, 1])],
    ['February 30th', forged(['2024-02-30T10:00:00Z', 0, 1])],
    ['year zero', forged(['0000-01-01T00:00:00Z', 0, 1])],
    ['an offset out of range', forged(['2024-01-01T00:00:00+99:00', 0, 1])],
    ['an ID beyond bigint', forged(['2024-01-01T00:00:00Z', 0, 2 ** 53])],
    ['not JSON', 'bm90IGpzb24'],
    ['not base64url', '***'],
  ])('%s', async (_what, cursor) => {
    const res = await fetch(`${a.url}/api/documents/${documentId}/history?cursor=${encodeURIComponent(cursor)}`, {
      headers: { accept: 'application/json', authorization: `Bearer ${bearer}` },
    });
    expect(res.status).toBe(400);
    expect((await problem(res)).errors).toEqual({ cursor: 'The cursor is not valid.' });
  });

  it('a real cursor still pages', async () => {
    const res = await fetch(`${a.url}/api/documents/${documentId}/history`, {
      headers: { accept: 'application/json', authorization: `Bearer ${bearer}` },
    });
    expect(res.status).toBe(200);
    const good = forged([new Date().toISOString(), 0, 1]);
    const next = await fetch(`${a.url}/api/documents/${documentId}/history?cursor=${good}`, {
      headers: { accept: 'application/json', authorization: `Bearer ${bearer}` },
    });
    expect(next.status).toBe(200);
  });
});
