/**
 * The documents app end to end (docs/spec.md 2.6, 3 "Document row" and "Document
 * status", 4.2, 6.1): the real app, real HTTP, real
 * PostgreSQL; every transition observed through the tables and the history
 * route.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import app from '../../app/main.js';
import type { Database } from '../../generated/types.js';
import { createTestApp, type TestApp } from '../../runtime/app/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';
import type { AuditTables } from '../runtime/audit/support.js';
import { bearerFor } from './tokens-support.js';
import { sqlDialectOf } from '../../runtime/db/sql-dialect.js';
type DB = Database & AuditTables;

let database: TestDatabase;
let t: TestApp<DB>;

beforeAll(async () => {
  database = await createTestDatabase('documents');
  t = await createTestApp<DB>(app, { databaseUrl: database.url, env: { ...referenceAppEnv, AUDIT_IP: 'masked' } });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});
beforeEach(async () => {
  await t.db.deleteFrom('documents').execute();
  await t.db.deleteFrom('audit_log').execute();
  await t.db.deleteFrom('audit_bulk_items').execute();
  await t.db.deleteFrom('audit_bulk').execute();
});

interface Call {
  readonly status: number;
  readonly body: any;
  readonly headers: Headers;
}

async function api(
  method: string,
  path: string,
  options: { user?: number | null; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Call> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.user !== null) headers['authorization'] = `Bearer ${await bearerFor(t, options.user ?? 1)}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers };
}

const create = async (slug: string, user = 1, more: Record<string, unknown> = {}) => {
  const res = await api('POST', '/api/documents', { user, body: { slug, title: `Title of ${slug}`, ...more } });
  expect(res.status).toBe(201);
  return res.body as { id: number; slug: string; title: string; status: string };
};
const entries = () => t.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
const history = async (id: number, user = 1, cursor?: string) =>
  api('GET', `/api/documents/${id}/history${cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`}`, { user });
const documentRow = (id: number) => t.db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirst();

describe('documents API | the caller is the owner of the bearer token', () => {
  it('answers 401 without a token (WWW-Authenticate: Bearer), with another scheme, or with a token that is not valid', async () => {
    const none = await api('GET', '/api/documents/export', { user: null });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    const basic = await api('GET', '/api/documents/export', { user: null, headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(basic.status).toBe(401);
    expect(basic.headers.get('www-authenticate')).toBe('Bearer');
    const bad = await api('GET', '/api/documents/export', { user: null, headers: { authorization: 'Bearer 1|not-a-token' } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });
});

describe('documents.create | POST /api/documents', () => {
  it('creates a draft owned by the caller: 201 JSON (share_token hidden, view_count as views), entry "created" by user:<id> via the request', async () => {
    const res = await api('POST', '/api/documents', { user: 7, body: { slug: 'hello', title: 'Hello' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      owner_id: 7,
      slug: 'hello',
      title: 'Hello',
      body: '',
      status: 'draft',
      views: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(res.headers.get('location')).toBe(`/api/documents/${res.body.id}`);
    expect((await documentRow(res.body.id))!.share_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const [entry] = await entries();
    expect(entry).toMatchObject({
      action: 'created',
      subject_type: 'documents',
      subject_id: String(res.body.id),
      actor_type: 'user',
      actor_id: '7',
      via_kind: 'request',
      via_name: 'POST /api/documents',
      request_id: res.headers.get('x-request-id'),
      ip: '127.0.0.0',
    });
    expect(entry!.changes.new).toMatchObject({ slug: 'hello', owner_id: 7, status: 'draft', share_token: '[redacted]' });
    expect(entry!.changes.new).not.toHaveProperty('view_count');
  });

  it('refuses a duplicate live slug with 422 on slug; the slug of a deleted document can be used again', async () => {
    const first = await create('taken');
    const dup = await api('POST', '/api/documents', { body: { slug: 'taken', title: 'Again' } });
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual({ slug: 'The slug has already been taken.' });
    expect((await api('DELETE', `/api/documents/${first.id}`)).status).toBe(204);
    expect((await api('POST', '/api/documents', { body: { slug: 'taken', title: 'Again' } })).status).toBe(201);
    expect((await entries()).map((e) => e.action)).toEqual(['created', 'deleted', 'created']);
  });

  it('checks the input: slug and title required, status one of draft, published, archived', async () => {
    const res = await api('POST', '/api/documents', { body: { slug: 'bad slug', title: '', status: 'secret' } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['slug', 'title', 'status']);
    expect(res.body.errors.status).toBe('The status field must be one of: draft, published, archived.');
    expect(await entries()).toEqual([]);
  });

  it('keeps status to its enum in the database too: the CHECK constraint rejects another value', async () => {
    const doc = await create('enum-check');
    await expect(
      t.db
        .updateTable('documents')
        .set({ status: 'secret' as 'draft' })
        .where('id', '=', doc.id)
        .execute(),
    ).rejects.toThrow(/documents_status_check/);
    const changed = await api('PATCH', `/api/documents/${doc.id}`, { body: { status: 'published' } });
    expect(changed.status).toBe(200);
    expect(changed.body.status).toBe('published');
    const bad = await api('PATCH', `/api/documents/${doc.id}`, { body: { status: 'Published' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ status: 'The status field must be one of: draft, published, archived.' });
  });
});

describe('documents.show | GET /api/documents/{id}', () => {
  it("answers the caller's document and logs nothing; another user's, an unknown or a deleted document is 404", async () => {
    const doc = await create('mine');
    expect((await api('GET', `/api/documents/${doc.id}`)).body).toMatchObject({ id: doc.id, slug: 'mine' });
    expect((await api('GET', `/api/documents/${doc.id}`, { user: 2 })).status).toBe(404);
    expect((await api('GET', '/api/documents/999999')).status).toBe(404);
    expect((await api('GET', '/api/documents/abc')).status).toBe(400);
    expect((await entries()).map((e) => e.action)).toEqual(['created']);
    await api('DELETE', `/api/documents/${doc.id}`);
    expect((await api('GET', `/api/documents/${doc.id}`)).status).toBe(404);
  });
});

describe('documents.update | PATCH /api/documents/{id}', () => {
  it('changes the given fields only; entry "updated" with old and new values, via the method and path without the query string', async () => {
    const doc = await create('patch-me', 1, { body: 'text' });
    const res = await api('PATCH', `/api/documents/${doc.id}?source=test`, { body: { title: 'Renamed' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: doc.id, title: 'Renamed', body: 'text', status: 'draft' });
    const entry = (await entries())[1]!;
    expect(entry).toMatchObject({
      action: 'updated',
      via_name: `PATCH /api/documents/${doc.id}`,
      actor_id: '1',
      request_id: res.headers.get('x-request-id'),
    });
    expect(entry.changes).toEqual({ old: { title: 'Title of patch-me' }, new: { title: 'Renamed' } });
  });

  it('moves the status to the supplied one from any status (docs/spec.md 3 "Document status"), one entry each', async () => {
    const doc = await create('states');
    for (const status of ['published', 'archived', 'draft', 'archived', 'published']) {
      const res = await api('PATCH', `/api/documents/${doc.id}`, { body: { status } });
      expect(res.body.status).toBe(status);
    }
    const updates = (await entries()).filter((e) => e.action === 'updated').map((e) => [e.changes.old.status, e.changes.new.status]);
    expect(updates).toEqual([
      ['draft', 'published'],
      ['published', 'archived'],
      ['archived', 'draft'],
      ['draft', 'archived'],
      ['archived', 'published'],
    ]);
    const events = (await history(doc.id)).body.events;
    expect(events.map((e: any) => e.changes.new?.status ?? e.action)).toEqual([
      'published',
      'archived',
      'draft',
      'archived',
      'published',
      'draft',
    ]);
  });

  it("writes no entry when nothing changes; another user's or a deleted document is 404 and unchanged", async () => {
    const doc = await create('same');
    expect((await api('PATCH', `/api/documents/${doc.id}`, { body: { title: 'Title of same' } })).status).toBe(200);
    expect((await api('PATCH', `/api/documents/${doc.id}`, { body: {} })).status).toBe(200);
    expect((await api('PATCH', `/api/documents/${doc.id}`, { user: 2, body: { title: 'Stolen' } })).status).toBe(404);
    await api('DELETE', `/api/documents/${doc.id}`);
    expect((await api('PATCH', `/api/documents/${doc.id}`, { body: { title: 'Ghost' } })).status).toBe(404);
    expect((await documentRow(doc.id))!.title).toBe('Title of same');
    expect((await entries()).map((e) => e.action)).toEqual(['created', 'deleted']);
  });

  it('50 concurrent PATCHes of one document give 50 entries whose old and new values chain without gaps', async () => {
    const doc = await create('busy');
    const titles = Array.from({ length: 50 }, (_, i) => `Concurrent ${i}`);
    const results = await Promise.all(titles.map((title) => api('PATCH', `/api/documents/${doc.id}`, { body: { title } })));
    expect(results.map((r) => r.status)).toEqual(titles.map(() => 200));
    const updates = (await entries()).filter((e) => e.action === 'updated');
    expect(updates).toHaveLength(50);
    let expected = 'Title of busy';
    for (const entry of updates) {
      expect(entry.changes.old.title).toBe(expected);
      expected = entry.changes.new.title;
    }
    expect((await documentRow(doc.id))!.title).toBe(expected);
    expect(new Set(updates.map((e) => e.changes.new.title))).toEqual(new Set(titles));
    // The history shows the same chain, newest first.
    const events = [...(await history(doc.id)).body.events, ...(await history(doc.id, 1, (await history(doc.id)).body.next)).body.events];
    expect(events.filter((e: any) => e.action === 'updated').map((e: any) => e.changes.new.title)).toEqual(
      updates.map((e) => e.changes.new.title).reverse(),
    );
  });
});

describe('documents.delete and documents.restore (docs/spec.md 3 "Document row")', () => {
  it('live → deleted: DELETE answers 204 and keeps the row; deleted → live: restore answers 200 with the document', async () => {
    const doc = await create('cycle');
    const del = await api('DELETE', `/api/documents/${doc.id}`);
    expect(del.status).toBe(204);
    expect(del.body).toBeUndefined();
    expect((await documentRow(doc.id))!.deleted_at).toBeInstanceOf(Date);
    expect((await api('DELETE', `/api/documents/${doc.id}`)).status).toBe(404);
    // A deleted document still has its history.
    expect((await history(doc.id)).body.events.map((e: any) => e.action)).toEqual(['deleted', 'created']);
    const restored = await api('POST', `/api/documents/${doc.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: doc.id, slug: 'cycle', title: 'Title of cycle' });
    expect((await documentRow(doc.id))!.deleted_at).toBeNull();
    expect((await api('POST', `/api/documents/${doc.id}/restore`)).status).toBe(404);
    expect((await entries()).map((e) => [e.action, e.changes])).toEqual([
      ['created', expect.anything()],
      ['deleted', null],
      ['restored', null],
    ]);
    expect((await history(doc.id)).body.events.map((e: any) => [e.action, e.changes])).toEqual([
      ['restored', {}],
      ['deleted', {}],
      ['created', expect.anything()],
    ]);
  });

  it('another user can neither delete nor restore the document', async () => {
    const doc = await create('guarded');
    expect((await api('DELETE', `/api/documents/${doc.id}`, { user: 2 })).status).toBe(404);
    await api('DELETE', `/api/documents/${doc.id}`);
    expect((await api('POST', `/api/documents/${doc.id}/restore`, { user: 2 })).status).toBe(404);
    expect((await entries()).map((e) => e.action)).toEqual(['created', 'deleted']);
  });

  it('refuses to restore a document whose slug a live document took meanwhile (422 on slug)', async () => {
    const old = await create('reused');
    await api('DELETE', `/api/documents/${old.id}`);
    await create('reused');
    const res = await api('POST', `/api/documents/${old.id}/restore`);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ slug: 'The slug has already been taken.' });
    expect((await entries()).map((e) => e.action)).toEqual(['created', 'deleted', 'created']);
  });
});

describe('documents.archive | POST /api/documents/archive (docs/spec.md 3 "Document status | published")', () => {
  it('archives the caller\'s published documents in one statement, one bulk entry, answering {"archived": n}', async () => {
    const a = await create('a', 1, { status: 'published' });
    const b = await create('b', 1, { status: 'published' });
    const draft = await create('c', 1);
    const other = await create('d', 2, { status: 'published' });
    const res = await api('POST', '/api/documents/archive');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ archived: 2 });
    const statuses = await t.db.selectFrom('documents').select(['id', 'status']).orderBy('id').execute();
    expect(statuses).toEqual([
      { id: a.id, status: 'archived' },
      { id: b.id, status: 'archived' },
      { id: draft.id, status: 'draft' },
      { id: other.id, status: 'published' },
    ]);
    const bulk = await t.db.selectFrom('audit_bulk').selectAll().execute();
    expect(bulk).toHaveLength(1);
    expect(bulk[0]).toMatchObject({
      action: 'updated',
      subject_type: 'documents',
      row_count: 2,
      actor_type: 'user',
      actor_id: '1',
      via_name: 'POST /api/documents/archive',
      // The handler's condition, then the policy's archive scope (the caller's authentication ID): docs/authorization.md "Bulk writes".
      where_clause: {
        sql:
          sqlDialectOf(t.db) === 'mysql'
            ? '`deleted_at` is null and `status` = ? and `documents`.`owner_id` = ?'
            : '"deleted_at" is null and "status" = $1 and "documents"."owner_id" = $2',
        args: ['published', '1'],
      },
      assignments: { status: 'archived' },
      values_before: { [a.id]: { status: 'published' }, [b.id]: { status: 'published' } },
      values_complete: true,
    });
    expect(
      (await t.db.selectFrom('audit_bulk_items').select('subject_id').orderBy('subject_id').execute()).map((i) => i.subject_id),
    ).toEqual([String(a.id), String(b.id)].sort());
    expect((await history(a.id)).body.events[0]).toEqual({
      at: expect.any(String),
      actor: 'user:1',
      action: 'updated',
      via: 'POST /api/documents/archive',
      rows: 2,
    });
    expect((await history(draft.id)).body.events.map((e: any) => e.action)).toEqual(['created']);
    expect((await api('POST', '/api/documents/archive')).body).toEqual({ archived: 0 });
    expect(await t.db.selectFrom('audit_bulk').select('id').execute()).toHaveLength(1);
  });
});

describe('documents.export | GET /api/documents/export', () => {
  it("answers the caller's live documents and records documents.exported about the caller", async () => {
    const a = await create('one', 5);
    const b = await create('two', 5);
    const gone = await create('three', 5);
    await create('not-mine', 6);
    await api('DELETE', `/api/documents/${gone.id}`, { user: 5 });
    const res = await api('GET', '/api/documents/export', { user: 5 });
    expect(res.status).toBe(200);
    expect(res.body.map((d: any) => d.id)).toEqual([a.id, b.id]);
    expect(res.body[0]).not.toHaveProperty('share_token');
    const entry = (await entries()).at(-1)!;
    expect(entry).toMatchObject({
      action: 'documents.exported',
      subject_type: 'users',
      subject_id: '5',
      properties: { documents: 2 },
      actor_type: 'user',
      actor_id: '5',
      via_name: 'GET /api/documents/export',
      changes: null,
    });
  });
});

describe('documents.history | GET /api/documents/{id}/history', () => {
  it('pages 50 events newest first across single and bulk entries; "next" whenever the page is full; then {"events": []}', async () => {
    const doc = await create('long', 1, { status: 'published' });
    // 1 created + 75 updated + 25 archive bulk writes = 101 events; the newest single
    // entry is dropped below so that exactly two full pages remain.
    for (let i = 0; i < 25; i++) {
      await api('PATCH', `/api/documents/${doc.id}`, { body: { title: `Edit ${i}` } });
      await api('PATCH', `/api/documents/${doc.id}`, { body: { body: `Text ${i}` } });
      await api('POST', '/api/documents/archive');
      await api('PATCH', `/api/documents/${doc.id}`, { body: { status: 'published' } });
    }
    await t.db
      .deleteFrom('audit_log')
      .where('action', '=', 'updated')
      .where(
        'id',
        '=',
        (await t.db.selectFrom('audit_log').select('id').where('action', '=', 'updated').orderBy('id', 'desc').executeTakeFirstOrThrow())
          .id,
      )
      .execute();
    const first = await history(doc.id);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(['events', 'next']);
    expect(first.body.events).toHaveLength(50);
    const second = await history(doc.id, 1, first.body.next);
    expect(second.body.events).toHaveLength(50);
    expect(typeof second.body.next).toBe('string');
    const third = await history(doc.id, 1, second.body.next);
    expect(third.status).toBe(200);
    expect(third.body).toEqual({ events: [] });
    const all = [...first.body.events, ...second.body.events];
    expect(all.filter((e: any) => e.rows !== undefined)).toHaveLength(25);
    expect(all.at(-1)).toMatchObject({ action: 'created', actor: 'user:1', via: 'POST /api/documents' });
    expect(all[0]).toMatchObject({ action: 'updated', via: 'POST /api/documents/archive', rows: 1 });
    for (const event of all) {
      expect(Object.keys(event)).toEqual(
        event.rows === undefined ? ['at', 'actor', 'action', 'via', 'changes'] : ['at', 'actor', 'action', 'via', 'rows'],
      );
    }
    const times = all.map((e: any) => Date.parse(e.at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
  });

  it("is 404 for an unknown document or another user's; 400 for a bad cursor", async () => {
    const doc = await create('private');
    expect((await history(999999)).status).toBe(404);
    expect((await history(doc.id, 2)).status).toBe(404);
    const bad = await history(doc.id, 1, 'not-a-cursor');
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ cursor: 'The cursor is not valid.' });
  });
});

describe('documents app | audit settings', () => {
  it('stops the boot on bad AUDIT_IP, AUDIT_BULK_MAX_VALUES or AUDIT_RETENTION_DAYS, naming each and its allowed values', async () => {
    const error = await createTestApp(app, {
      databaseUrl: database.url,
      migrate: false,
      env: { ...referenceAppEnv, AUDIT_IP: 'partial', AUDIT_BULK_MAX_VALUES: '-1', AUDIT_RETENTION_DAYS: 'forever' },
    }).then(
      async (started) => {
        await started.close();
        return undefined;
      },
      (e: unknown) => e as Error & { code?: string },
    );
    expect(error?.code).toBe('BINDERY_SETTING_INVALID');
    expect(error?.message).toContain('AUDIT_IP');
    expect(error?.message).toContain('one of off, masked, full');
    expect(error?.message).toContain('AUDIT_BULK_MAX_VALUES');
    expect(error?.message).toContain('AUDIT_RETENTION_DAYS');
    expect(error?.message).toMatch(/an integer from 0 to/);
  });
});
