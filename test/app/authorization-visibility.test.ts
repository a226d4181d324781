/**
 * No list, included relation or history of the reference app ever shows
 * another user's row (docs/authorization.md "Lists", "Included relations";
 * the policy documents): three users with documents in every state, each
 * reading everything they can reach (the third an admin, whom the policy
 * lets act on every document) — and, with `AUDIT_DENIALS=true`, the
 * refusals recorded in the audit log without row data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../generated/types.js';
import { makeAccount, bootReferenceApp, type ReferenceApp } from './tokens-support.js';

let a: ReferenceApp;
const users: User[] = [];
const tokens = new Map<number, string>();
/** Each user's document slugs. */
const slugsOf = new Map<number, string[]>();

beforeAll(async () => {
  a = await bootReferenceApp('authz_visible', { AUDIT_DENIALS: 'true' });
  for (let i = 0; i < 3; i++) users.push(await makeAccount(a));
  await a.db.updateTable('users').set({ admin: true }).where('id', '=', users[2]!.id).execute();
  for (const user of users) {
    tokens.set(
      user.id,
      (await a.apiTokens.create(String(user.id), { name: 'all', abilities: ['documents:read', 'documents:write'] })).plain,
    );
    const slugs: string[] = [];
    for (let n = 0; n < 12; n++) {
      const slug = `u${user.id}-n${n}`;
      slugs.push(slug);
      const res = await api(user, 'POST', '/api/documents', {
        slug,
        title: `Secret of ${user.id}`,
        status: n % 3 === 0 ? 'published' : 'draft',
      });
      expect(res.status).toBe(201);
      if (n % 4 === 1) await api(user, 'PATCH', `/api/documents/${res.body.id}`, { title: `Edited by ${user.id}` });
      if (n % 5 === 2) await api(user, 'DELETE', `/api/documents/${res.body.id}`);
    }
    slugsOf.set(user.id, slugs);
    await api(user, 'POST', '/api/documents/archive');
  }
});
afterAll(async () => {
  await a?.close();
});

async function api(user: User, method: string, path: string, body?: unknown): Promise<{ status: number; body: any; text: string }> {
  const res = await fetch(`${a.url}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${tokens.get(user.id)}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), text };
}

/** Every id of `owner`'s documents, deleted ones included. */
const idsOf = async (owner: User) =>
  (await a.db.selectFrom('documents').select('id').where('owner_id', '=', owner.id).execute()).map((r) => r.id);

describe('visibility | no list, include or history shows another user’s row', () => {
  it('the list, page after page, holds the caller’s live documents only, each including its owner: the caller', async () => {
    for (const user of users.slice(0, 2)) {
      const seen: { slug: string; owner_id: number; owner: { id: number } | null }[] = [];
      let next: string | null = '';
      while (next !== null) {
        const res = await api(user, 'GET', `/api/documents?limit=5${next === '' ? '' : `&cursor=${encodeURIComponent(next)}`}`);
        expect(res.status).toBe(200);
        seen.push(...res.body.data);
        next = res.body.next;
      }
      const live = (
        await a.db.selectFrom('documents').select('slug').where('owner_id', '=', user.id).where('deleted_at', 'is', null).execute()
      ).map((r) => r.slug);
      expect(seen.map((d) => d.slug).sort()).toEqual(live.sort());
      expect(seen.every((d) => d.owner_id === user.id && d.owner?.id === user.id)).toBe(true);
      // Not even a filter or another sort reaches the others' rows.
      for (const other of users.filter((u) => u !== user)) {
        const filtered = await api(user, 'GET', `/api/documents?filter[slug]=u${other.id}-&sort=id`);
        expect(filtered.body).toEqual({ data: [], next: null });
      }
    }
  });

  it('an admin’s list holds every live document, each including its owner', async () => {
    const admin = users[2]!;
    const seen: { slug: string; owner_id: number; owner: { id: number } | null }[] = [];
    let next: string | null = '';
    while (next !== null) {
      const res = await api(admin, 'GET', `/api/documents?limit=10${next === '' ? '' : `&cursor=${encodeURIComponent(next)}`}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data);
      next = res.body.next;
    }
    const live = (await a.db.selectFrom('documents').select('slug').where('deleted_at', 'is', null).execute()).map((r) => r.slug);
    expect(seen.map((d) => d.slug).sort()).toEqual(live.sort());
    expect(seen.every((d) => d.owner?.id === d.owner_id)).toBe(true);
  });

  it('the export holds the caller’s documents only; its response names no one else’s', async () => {
    for (const user of users) {
      const res = await api(user, 'GET', '/api/documents/export');
      expect(res.status).toBe(200);
      expect(res.body.every((d: { owner_id: number }) => d.owner_id === user.id)).toBe(true);
      for (const other of users.filter((u) => u !== user)) expect(res.text).not.toContain(`Secret of ${other.id}`);
    }
  });

  it('a history is its owner’s alone (deleted documents included); every event of it is about that document', async () => {
    for (const user of users) {
      for (const id of await idsOf(user)) {
        const own = await api(user, 'GET', `/api/documents/${id}/history`);
        expect(own.status).toBe(200);
        expect(own.body.events.length).toBeGreaterThan(0);
        // Single entries of this row and bulk entries that touched it, by its owner only.
        expect(own.body.events.every((e: { actor: string }) => e.actor === `user:${user.id}`)).toBe(true);
        for (const other of users.filter((u) => u !== user && u !== users[2])) {
          const theirs = await api(other, 'GET', `/api/documents/${id}/history`);
          expect(theirs.status).toBe(404);
          expect(theirs.text).not.toContain('Secret');
        }
        // The admin reads every document's history.
        expect((await api(users[2]!, 'GET', `/api/documents/${id}/history`)).status).toBe(200);
      }
    }
  });

  it('a direct read, a change, a deletion of another user’s document is 404 — not for an admin — and changes nothing', async () => {
    const [first, second, adminUser] = users as [User, User, User];
    const before = await a.db.selectFrom('documents').selectAll().where('owner_id', '=', first.id).orderBy('id').execute();
    for (const id of await idsOf(first)) {
      const deleted = before.find((d) => d.id === id)?.deleted_at !== null;
      expect((await api(adminUser, 'GET', `/api/documents/${id}`)).status).toBe(deleted ? 404 : 200);
      for (const caller of [second]) {
        expect((await api(caller, 'GET', `/api/documents/${id}`)).status).toBe(404);
        expect((await api(caller, 'PATCH', `/api/documents/${id}`, { title: 'Taken' })).status).toBe(404);
        expect((await api(caller, 'DELETE', `/api/documents/${id}`)).status).toBe(404);
        expect((await api(caller, 'POST', `/api/documents/${id}/restore`)).status).toBe(404);
      }
    }
    expect(await a.db.selectFrom('documents').selectAll().where('owner_id', '=', first.id).orderBy('id').execute()).toEqual(before);
  });
});

describe('AUDIT_DENIALS=true | refusals recorded in the audit log', () => {
  it('records authorization.denied by the caller via the request: the policy, action, reason and status — no row data', async () => {
    const [first, second] = users as [User, User];
    const [id] = await idsOf(first);
    const res = await api(second, 'PATCH', `/api/documents/${id}`, { title: 'Taken' });
    expect(res.status).toBe(404);
    const entry = await a.db
      .selectFrom('audit_log' as never)
      .selectAll()
      .where('action' as never, '=', 'authorization.denied' as never)
      .where('request_id' as never, '=', res.body.request_id as never)
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({
      actor_type: 'user',
      actor_id: String(second.id),
      subject_type: 'documents',
      subject_id: String(id),
      via_kind: 'request',
      via_name: `PATCH /api/documents/${id}`,
      changes: null,
      properties: { policy: 'documents', action: 'update', reason: 'rule', status: 404, route: 'documents.update' },
    });
    expect(JSON.stringify(entry)).not.toContain('Secret');
    expect(JSON.stringify(entry)).not.toContain('Taken');
  });

  it('records a token lacking the ability without a subject (no row was read)', async () => {
    const [first] = users as [User];
    const readOnly = (await a.apiTokens.create(String(first.id), { name: 'read', abilities: ['documents:read'] })).plain;
    const res = await fetch(`${a.url}/api/documents/archive`, {
      method: 'POST',
      headers: { accept: 'application/json', authorization: `Bearer ${readOnly}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(403);
    const requestId = res.headers.get('x-request-id');
    const entry = await a.db
      .selectFrom('audit_log' as never)
      .selectAll()
      .where('request_id' as never, '=', requestId as never)
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({
      action: 'authorization.denied',
      subject_type: null,
      subject_id: null,
      properties: {
        policy: 'documents',
        action: 'archive',
        reason: 'ability',
        status: 403,
        ability: 'documents:write',
        route: 'documents.archive',
      },
    });
  });
});
