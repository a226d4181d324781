/**
 * Who may call what in the reference app (docs/authorization.md; the
 * policies documents, users and tokens of schema/*.yaml): every document
 * route (attachments included) and the account routes × the owner, another user, an admin, a
 * guest, a token with the route's ability, one without it, and a revoked
 * token — the status of each, and that a refused write changed nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { User } from '../../generated/types.js';
import { PNG_1X1 } from '../runtime/storage/support.js';
import { Client } from '../runtime/auth/support/client.js';
import { makeAccount, signIn, bootReferenceApp, type ReferenceApp } from './tokens-support.js';
import { insertReturning } from '../../runtime/db/portable-writes.js';

let a: ReferenceApp;
let storageRoot: string;
let owner: User;
let other: User;
let admin: User;

/** The kinds of caller of the matrix. */
const CALLERS = ['owner', 'other', 'admin', 'guest', 'tokenWith', 'tokenWithout', 'revoked'] as const;
type Caller = (typeof CALLERS)[number];

/** How a caller sends its requests: a bearer token, a session cookie, or nothing. */
interface As {
  readonly bearer?: string;
  readonly client?: Client;
}

beforeAll(async () => {
  storageRoot = await mkdtemp(join(tmpdir(), 'bindery-authz-'));
  a = await bootReferenceApp('authz_matrix', { STORAGE_LOCAL_ROOT: storageRoot });
  owner = await makeAccount(a);
  other = await makeAccount(a);
  admin = await makeAccount(a);
  await a.db.updateTable('users').set({ admin: true }).where('id', '=', admin.id).execute();
});
afterAll(async () => {
  await a?.close();
  await rm(storageRoot, { recursive: true, force: true });
});

/** A fresh token of `user` with `abilities`; `revoked` deletes it again. */
async function token(user: User, abilities: readonly string[], revoked = false): Promise<string> {
  const made = await a.apiTokens.create(String(user.id), { name: 'matrix', abilities });
  if (revoked) await a.apiTokens.revoke(String(user.id), made.token.id);
  return made.plain;
}

/** A multipart body with one small PNG in field `file`. */
const pngForm = (): FormData => {
  const form = new FormData();
  form.append('file', new Blob([PNG_1X1], { type: 'image/png' }), 'dot.png');
  return form;
};

async function send(as: As, method: string, path: string, body?: unknown): Promise<{ status: number; body: any; text: string }> {
  if (body instanceof FormData) {
    const res = await fetch(`${a.url}${path}`, {
      method,
      body,
      headers: { accept: 'application/json', ...(as.bearer !== undefined ? { authorization: `Bearer ${as.bearer}` } : {}) },
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text), text };
  }
  const c = as.client ?? new Client(a.url);
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...(as.bearer !== undefined ? { authorization: `Bearer ${as.bearer}` } : {}),
  };
  const reply =
    method === 'GET' || method === 'DELETE' ? await c.send(method, path, { headers }) : await c.json(method, path, body ?? {}, headers);
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply.body);
  } catch {
    parsed = undefined;
  }
  return { status: reply.status, body: parsed, text: reply.body };
}

// ── the documents API: bearer tokens ──

const READ = ['documents:read'];
const WRITE = ['documents:write'];

/** The callers of a document route that needs `ability`: tokens of the owner, of others, none, one lacking it, a revoked one. */
async function documentCallers(ability: 'read' | 'write'): Promise<Record<Caller, As>> {
  const needed = ability === 'read' ? READ : WRITE;
  const lacking = ability === 'read' ? WRITE : READ;
  const both = [...READ, ...WRITE];
  return {
    owner: { bearer: await token(owner, both) },
    other: { bearer: await token(other, both) },
    admin: { bearer: await token(admin, both) },
    guest: {},
    tokenWith: { bearer: await token(owner, needed) },
    tokenWithout: { bearer: await token(owner, lacking) },
    revoked: { bearer: await token(owner, both, true) },
  };
}

interface Seeded {
  /** The owner's live draft, a published one, and a deleted one. */
  readonly draft: number;
  readonly published: number;
  readonly deleted: number;
  /** An attachment of the draft. */
  readonly attachment: number;
}

async function seed(): Promise<Seeded> {
  await a.db.deleteFrom('documents').execute();
  const add = (slug: string, status: 'draft' | 'published', deleted = false) =>
    insertReturning(a.db, 'documents', {
      owner_id: owner.id,
      slug,
      title: slug,
      status,
      ...(deleted ? { deleted_at: new Date() } : {}),
    }).then((r) => r.id);
  const draft = await add('mine-draft', 'draft');
  const attached = await send({ bearer: ownerWriter }, 'POST', `/api/documents/${draft}/attachments`, pngForm());
  expect(attached.status, JSON.stringify(attached.body)).toBe(201);
  return {
    draft,
    published: await add('mine-published', 'published'),
    deleted: await add('mine-deleted', 'draft', true),
    attachment: attached.body.id,
  };
}

/** A token of the owner that may write, for the seeding. */
let ownerWriter: string;
beforeAll(async () => {
  ownerWriter = await token(owner, WRITE);
});

/** Each document route: its request, the ability it needs, and the status for each caller. */
const DOCUMENT_ROUTES: {
  readonly name: string;
  readonly ability: 'read' | 'write';
  readonly request: (s: Seeded) => [string, string, unknown?];
  readonly expected: Record<Caller, number>;
}[] = [
  {
    name: 'documents.create',
    ability: 'write',
    request: () => ['POST', '/api/documents', { slug: `new-${Math.random().toString(36).slice(2, 8)}`, title: 'New' }],
    expected: { owner: 201, other: 201, admin: 201, guest: 401, tokenWith: 201, tokenWithout: 403, revoked: 401 },
  },
  {
    name: 'documents.list',
    ability: 'read',
    request: () => ['GET', '/api/documents'],
    expected: { owner: 200, other: 200, admin: 200, guest: 401, tokenWith: 200, tokenWithout: 403, revoked: 401 },
  },
  {
    name: 'documents.export',
    ability: 'read',
    request: () => ['GET', '/api/documents/export'],
    expected: { owner: 200, other: 200, admin: 200, guest: 401, tokenWith: 200, tokenWithout: 403, revoked: 401 },
  },
  {
    name: 'documents.archive',
    ability: 'write',
    request: () => ['POST', '/api/documents/archive'],
    expected: { owner: 200, other: 200, admin: 200, guest: 401, tokenWith: 200, tokenWithout: 403, revoked: 401 },
  },
  {
    name: 'documents.show',
    ability: 'read',
    request: (s) => ['GET', `/api/documents/${s.draft}`],
    expected: { owner: 200, other: 404, admin: 200, guest: 401, tokenWith: 200, tokenWithout: 403, revoked: 401 },
  },
  {
    name: 'documents.update',
    ability: 'write',
    request: (s) => ['PATCH', `/api/documents/${s.draft}`, { title: 'Changed' }],
    expected: { owner: 200, other: 404, admin: 200, guest: 401, tokenWith: 200, tokenWithout: 403, revoked: 401 },
  },
  {
    name: 'documents.delete',
    ability: 'write',
    request: (s) => ['DELETE', `/api/documents/${s.draft}`],
    expected: { owner: 204, other: 404, admin: 204, guest: 401, tokenWith: 204, tokenWithout: 403, revoked: 401 },
  },
  {
    name: 'documents.restore',
    ability: 'write',
    request: (s) => ['POST', `/api/documents/${s.deleted}/restore`],
    expected: { owner: 200, other: 404, admin: 200, guest: 401, tokenWith: 200, tokenWithout: 403, revoked: 401 },
  },
  {
    name: 'documents.history',
    ability: 'read',
    request: (s) => ['GET', `/api/documents/${s.draft}/history`],
    expected: { owner: 200, other: 404, admin: 200, guest: 401, tokenWith: 200, tokenWithout: 403, revoked: 401 },
  },
  {
    name: 'attachments.list',
    ability: 'read',
    request: (s) => ['GET', `/api/documents/${s.draft}/attachments`],
    expected: { owner: 200, other: 404, admin: 200, guest: 401, tokenWith: 200, tokenWithout: 403, revoked: 401 },
  },
  {
    name: 'attachments.create',
    ability: 'write',
    request: (s) => ['POST', `/api/documents/${s.draft}/attachments`, pngForm()],
    expected: { owner: 201, other: 404, admin: 201, guest: 401, tokenWith: 201, tokenWithout: 403, revoked: 401 },
  },
  {
    name: 'attachments.delete',
    ability: 'write',
    request: (s) => ['DELETE', `/api/documents/${s.draft}/attachments/${s.attachment}`],
    expected: { owner: 204, other: 404, admin: 204, guest: 401, tokenWith: 204, tokenWithout: 403, revoked: 401 },
  },
  {
    name: 'attachments.upload',
    ability: 'write',
    request: (s) => ['POST', `/api/documents/${s.draft}/attachments/uploads`],
    expected: { owner: 201, other: 404, admin: 201, guest: 401, tokenWith: 201, tokenWithout: 403, revoked: 401 },
  },
  {
    // An upload token the storage never signed: the policy answers first, so only the owner (and an
    // admin, whom the policy lets act on every document) reaches the token's check (403
    // BINDERY_STORAGE_SIGNATURE_INVALID); the others learn nothing of the document.
    name: 'attachments.confirm',
    ability: 'write',
    request: (s) => ['POST', `/api/documents/${s.draft}/attachments/confirm`, { token: 'not-a-token' }],
    expected: { owner: 403, other: 404, admin: 403, guest: 401, tokenWith: 403, tokenWithout: 403, revoked: 401 },
  },
];

/** The owner's documents and their attachments as they are (a refused write must leave them so). */
const snapshot = async () => ({
  documents: await a.db
    .selectFrom('documents')
    .select(['id', 'title', 'status', 'deleted_at'])
    .where('owner_id', '=', owner.id)
    .orderBy('id')
    .execute(),
  attachments: await a.db.selectFrom('document_attachments').select(['id', 'document_id']).orderBy('id').execute(),
});

describe('authorization matrix | every document route × every caller', () => {
  it.each(DOCUMENT_ROUTES)('$name', async ({ ability, request, expected }) => {
    const callers = await documentCallers(ability);
    const seen: Record<string, number> = {};
    for (const caller of CALLERS) {
      const s = await seed();
      const before = await snapshot();
      const [method, path, body] = request(s);
      const res = await send(callers[caller], method, path, body);
      seen[caller] = res.status;
      if (res.status >= 400) {
        expect(res.body, `${caller}: problem details`).toMatchObject({ status: res.status, title: expect.any(String) });
        expect(await snapshot(), `${caller}: a refused request changes nothing`).toEqual(before);
      }
    }
    expect(seen).toEqual(expected);
  });

  it("an unknown document is 404 for its would-be owner too, with the same words as another user's", async () => {
    const s = await seed();
    const { owner: mine, other: theirs } = await documentCallers('read');
    const unknown = await send(mine, 'GET', '/api/documents/987654');
    const hidden = await send(theirs, 'GET', `/api/documents/${s.draft}`);
    expect(unknown.body).toMatchObject({ status: 404, detail: 'Document 987654 does not exist.' });
    expect(hidden.body).toMatchObject({ status: 404, detail: `Document ${s.draft} does not exist.` });
  });

  it('archive and the list act on the caller’s rows only, whoever calls', async () => {
    const s = await seed();
    const callers = await documentCallers('write');
    expect((await send(callers.other, 'POST', '/api/documents/archive')).body).toEqual({ archived: 0 });
    expect((await send(callers.admin, 'POST', '/api/documents/archive')).body).toEqual({ archived: 0 });
    expect((await a.db.selectFrom('documents').select('status').where('id', '=', s.published).executeTakeFirstOrThrow()).status).toBe(
      'published',
    );
    expect((await send(callers.owner, 'POST', '/api/documents/archive')).body).toEqual({ archived: 1 });
    const reads = await documentCallers('read');
    expect((await send(reads.other, 'GET', '/api/documents')).body).toEqual({ data: [], next: null });
    expect((await send(reads.admin, 'GET', '/api/documents/export')).body).toEqual([]);
  });
});

// ── the account routes: sessions ──

/** The callers of the session routes: browsers signed in by session, a guest, and bearer tokens (which these routes do not read). */
async function accountCallers(): Promise<Record<Caller, As>> {
  const browser = async (user: User) => {
    const c = await signIn(a, user);
    await c.page('/dashboard');
    return c;
  };
  return {
    owner: { client: await browser(owner) },
    other: { client: await browser(other) },
    admin: { client: await browser(admin) },
    guest: {},
    tokenWith: { bearer: await token(owner, ['profile:read', 'users:view', 'users:admin', 'tokens:delete', 'tokens:create']) },
    tokenWithout: { bearer: await token(owner, []) },
    revoked: { bearer: await token(owner, ['profile:read'], true) },
  };
}

describe('authorization matrix | the account routes × every caller', () => {
  let callers: Record<Caller, As>;
  let ownToken: number;
  beforeAll(async () => {
    callers = await accountCallers();
  });
  beforeEach(async () => {
    ownToken = (await a.apiTokens.create(String(owner.id), { name: 'to revoke', abilities: [] })).token.id;
  });

  const ACCOUNT_ROUTES: {
    readonly name: string;
    readonly request: () => [string, string, unknown?];
    readonly expected: Record<Caller, number>;
  }[] = [
    {
      name: 'users.show (the owner’s page)',
      request: () => ['GET', `/users/${owner.id}`],
      expected: { owner: 200, other: 404, admin: 200, guest: 401, tokenWith: 401, tokenWithout: 401, revoked: 401 },
    },
    {
      name: 'users.show (an unknown user)',
      request: () => ['GET', '/users/987654'],
      expected: { owner: 404, other: 404, admin: 404, guest: 401, tokenWith: 401, tokenWithout: 401, revoked: 401 },
    },
    {
      name: 'backOffice.home',
      request: () => ['GET', '/admin'],
      expected: { owner: 403, other: 403, admin: 200, guest: 401, tokenWith: 401, tokenWithout: 401, revoked: 401 },
    },
    {
      name: 'accounts.dashboard',
      request: () => ['GET', '/dashboard'],
      expected: { owner: 200, other: 200, admin: 200, guest: 401, tokenWith: 401, tokenWithout: 401, revoked: 401 },
    },
    {
      name: 'tokens.create',
      request: () => ['POST', '/tokens', { name: 'another' }],
      expected: { owner: 303, other: 303, admin: 303, guest: 401, tokenWith: 401, tokenWithout: 401, revoked: 401 },
    },
    {
      name: 'tokens.delete (the owner’s token)',
      request: () => ['POST', `/tokens/${ownToken}/delete`],
      expected: { owner: 303, other: 404, admin: 404, guest: 401, tokenWith: 401, tokenWithout: 401, revoked: 401 },
    },
  ];

  it.each(ACCOUNT_ROUTES)('$name', async ({ request, expected }) => {
    const seen: Record<string, number> = {};
    for (const caller of CALLERS) {
      const [method, path, body] = request();
      const tokensBefore = (await a.apiTokens.list(String(owner.id))).map((t) => t.id);
      const res = await send(callers[caller], method, path, body);
      seen[caller] = res.status;
      if (res.status >= 400)
        expect(
          (await a.apiTokens.list(String(owner.id))).map((t) => t.id),
          `${caller}: nothing revoked`,
        ).toEqual(tokensBefore);
      if (method === 'POST' && res.status === 303 && path.endsWith('/delete'))
        ownToken = (await a.apiTokens.create(String(owner.id), { name: 'to revoke', abilities: [] })).token.id;
    }
    expect(seen).toEqual(expected);
  });

  it('GET /api/me: a token needs profile:read; sessions are not read there', async () => {
    const with_ = await token(owner, ['profile:read']);
    const seen = {
      ownerToken: (await send({ bearer: with_ }, 'GET', '/api/me')).status,
      otherToken: (await send({ bearer: await token(other, ['profile:read']) }, 'GET', '/api/me')).status,
      adminToken: (await send({ bearer: await token(admin, ['profile:read']) }, 'GET', '/api/me')).status,
      guest: (await send({}, 'GET', '/api/me')).status,
      tokenWithout: (await send({ bearer: await token(owner, ['documents:read']) }, 'GET', '/api/me')).status,
      revoked: (await send({ bearer: await token(owner, ['profile:read'], true) }, 'GET', '/api/me')).status,
      ownerSession: (await send(callers.owner, 'GET', '/api/me')).status,
    };
    expect(seen).toEqual({
      ownerToken: 200,
      otherToken: 200,
      adminToken: 200,
      guest: 401,
      tokenWithout: 403,
      revoked: 401,
      ownerSession: 401,
    });
  });

  it("the pages show what the policies allow: the admin link for admins only; a refused page is the error page, a guest's sent to log in", async () => {
    const own = await (callers.owner.client as Client).page(`/users/${owner.id}`);
    expect(own.status).toBe(200);
    expect(own.body).not.toContain('href="/admin"');
    const adminPage = await (callers.admin.client as Client).page(`/users/${owner.id}`);
    expect(adminPage.body).toContain('href="/admin"');
    expect((await (callers.other.client as Client).page(`/users/${owner.id}`)).status).toBe(404);
    const guest = await new Client(a.url).page('/admin');
    expect(guest.status).toBe(303);
    expect(guest.location).toBe('/login');
  });
});
