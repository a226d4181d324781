/**
 * The back office's revert routes over real HTTP (schema/back-office.yaml,
 * docs/audit.md "Revert"): an admin's session reverts an entry, a bulk
 * write and a request; 409 names the rows in conflict, 404 an unknown
 * entry, 403 a caller who is not an admin; two reverts racing: one 200,
 * one 409; a form goes back with a status message.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { User } from '../../generated/types.js';
import type { Client } from '../runtime/auth/support/client.js';
import { bearerCall, bootReferenceApp, makeAccount, signIn, type ReferenceApp } from './tokens-support.js';

let a: ReferenceApp;
let owner: User;
let admin: User;
let adminBrowser: Client;
let ownerBrowser: Client;

beforeAll(async () => {
  a = await bootReferenceApp('back_office');
  owner = await makeAccount(a);
  admin = await makeAccount(a);
  await a.db.updateTable('users').set({ admin: true }).where('id', '=', admin.id).execute();
  adminBrowser = await signIn(a, admin);
  await adminBrowser.page('/dashboard');
  ownerBrowser = await signIn(a, owner);
  await ownerBrowser.page('/dashboard');
});
afterAll(async () => {
  await a?.close();
});
beforeEach(async () => {
  await a.db.deleteFrom('documents').execute();
});

/** A call of the documents API as the owner (bearer token, no session). */
const api = (method: string, path: string, body?: unknown) => bearerCall(a.t, a.url, owner.id, method, path, body);

async function revert(c: Client, path: string, body: unknown = {}): Promise<{ status: number; body: any }> {
  const reply = await c.json('POST', path, body);
  return { status: reply.status, body: reply.body === '' ? undefined : JSON.parse(reply.body) };
}

/** The newest audit_log entry of a document. */
async function newestEntry(id: number): Promise<{ id: string; request_id: string | null }> {
  const row = await a.db
    .selectFrom('audit_log' as never)
    .select(['id', 'request_id'] as never)
    .where('subject_id' as never, '=', String(id) as never)
    .orderBy('id' as never, 'desc')
    .executeTakeFirstOrThrow();
  const r = row as { id: unknown; request_id: string | null };
  return { id: String(r.id), request_id: r.request_id };
}

const title = async (id: number) => (await a.db.selectFrom('documents').select('title').where('id', '=', id).executeTakeFirst())?.title;

async function newDocument(slug: string): Promise<number> {
  const made = await api('POST', '/api/documents', { slug, title: 'First' });
  expect(made.status).toBe(201);
  return made.body.id;
}

describe('back office | POST /admin/audit/{entry}/revert', () => {
  it('an admin reverts a change: 200 with the entry written, the old values back', async () => {
    const id = await newDocument('one');
    expect((await api('PATCH', `/api/documents/${id}`, { title: 'Second' })).status).toBe(200);
    const entry = await newestEntry(id);
    const res = await revert(adminBrowser, `/admin/audit/${entry.id}/revert`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.entries).toHaveLength(1);
    expect(res.body.entries[0]).toMatchObject({
      action: 'reverted',
      resource: 'documents',
      subjectId: String(id),
      actor: { label: `user:${admin.id}` },
      via: { kind: 'request', name: `POST /admin/audit/${entry.id}/revert` },
      diff: [{ field: 'title', old: 'Second', new: 'First' }],
      details: { reverted: { kind: 'entry', id: entry.id }, performed: 'update' },
    });
    expect(res.body.notes).toEqual([]);
    expect(await title(id)).toBe('First');
  });

  it('409 problem details naming the row and field changed since; 200 once the field is confirmed', async () => {
    const id = await newDocument('two');
    await api('PATCH', `/api/documents/${id}`, { title: 'Second' });
    const entry = await newestEntry(id);
    await api('PATCH', `/api/documents/${id}`, { title: 'Third' });
    const res = await revert(adminBrowser, `/admin/audit/${entry.id}/revert`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 409, detail: expect.stringContaining(`documents/${id}`) });
    expect(res.body.errors[`documents/${id}.title`]).toBe(
      'Changed since: the entry changed it from "First" to "Second"; it is now "Third".',
    );
    expect(await title(id)).toBe('Third');
    const confirmed = await revert(adminBrowser, `/admin/audit/${entry.id}/revert`, { confirm: ['title'] });
    expect(confirmed.status).toBe(200);
    expect(await title(id)).toBe('First');
  });

  it('two reverts of one entry at once: one 200, the other 409', async () => {
    const id = await newDocument('race');
    await api('PATCH', `/api/documents/${id}`, { title: 'Second' });
    const entry = await newestEntry(id);
    const both = await Promise.all([
      revert(adminBrowser, `/admin/audit/${entry.id}/revert`),
      revert(adminBrowser, `/admin/audit/${entry.id}/revert`),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await title(id)).toBe('First');
  });

  it('404 for an unknown entry, 403 for a signed-in user who is not an admin', async () => {
    const unknown = await revert(adminBrowser, '/admin/audit/987654/revert');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: 404, detail: 'No audit entry 987654 exists.' });
    const id = await newDocument('three');
    await api('PATCH', `/api/documents/${id}`, { title: 'Second' });
    const entry = await newestEntry(id);
    const refused = await revert(ownerBrowser, `/admin/audit/${entry.id}/revert`);
    expect(refused.status).toBe(403);
    expect(await title(id)).toBe('Second');
  });

  it('a form post goes back with a status message', async () => {
    const id = await newDocument('form');
    await api('PATCH', `/api/documents/${id}`, { title: 'Second' });
    const entry = await newestEntry(id);
    const res = await adminBrowser.form(`/admin/audit/${entry.id}/revert`, {}, { referer: '/dashboard' });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard');
    expect(await title(id)).toBe('First');
  });
});

describe('back office | bulk writes and requests', () => {
  it('POST /admin/audit/bulk/{bulk}/revert puts a bulk archive back as one unit', async () => {
    const ids = [await newDocument('b1'), await newDocument('b2')];
    for (const id of ids) await api('PATCH', `/api/documents/${id}`, { status: 'published' });
    expect((await api('POST', '/api/documents/archive')).body).toEqual({ archived: 2 });
    const bulk = (await a.db
      .selectFrom('audit_bulk' as never)
      .select('id' as never)
      .orderBy('id' as never, 'desc')
      .executeTakeFirstOrThrow()) as { id: unknown };
    const res = await revert(adminBrowser, `/admin/audit/bulk/${String(bulk.id)}/revert`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.entries).toMatchObject([{ ref: { kind: 'bulk' }, action: 'reverted', rows: 2 }]);
    const statuses = await a.db.selectFrom('documents').select('status').where('id', 'in', ids).execute();
    expect(statuses.map((s) => s.status)).toEqual(['published', 'published']);
    expect((await revert(adminBrowser, '/admin/audit/bulk/987654/revert')).status).toBe(404);
  });

  it('POST /admin/audit/requests/{requestId}/revert undoes what one request did', async () => {
    const id = await newDocument('req');
    await api('PATCH', `/api/documents/${id}`, { title: 'Second', status: 'published' });
    const entry = await newestEntry(id);
    expect(entry.request_id).not.toBeNull();
    const res = await revert(adminBrowser, `/admin/audit/requests/${encodeURIComponent(entry.request_id!)}/revert`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.entries[0].details).toEqual({ reverted: { requestId: entry.request_id }, performed: 'update' });
    expect(await title(id)).toBe('First');
    expect((await revert(adminBrowser, '/admin/audit/requests/no-such-request/revert')).status).toBe(404);
  });
});
