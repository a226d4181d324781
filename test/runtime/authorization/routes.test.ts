/**
 * Policies enforced by the HTTP pipeline (docs/authorization.md "Routes"):
 * a route with a target reads its row, applies the rule and hands the row
 * to the handler; 401 for a guest, 403 for a token without the ability or a
 * refusal the caller may see, 404 where the policy hides existence (the
 * same answer as a missing row); refusals before the row is read for what
 * does not depend on it; a throwing policy is a 500 logged with the request
 * ID; denials are logged without row data; listed outputs, included
 * relations and bulk writes are narrowed; ctx.can, ctx.authorize and
 * ctx.scope in handlers.
 */
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serializeDocument, serializeUser } from '../../../generated/serializers.js';
import { createHttpServer } from '../../../runtime/http/server.js';
import type { Services } from '../../../runtime/http/context.js';
import type { RequestContext } from '../../../runtime/http/index.js';
import type { RouteDefinition } from '../../../runtime/routing/route-table.js';
import { closeAll, startServer, type TestServer } from '../http/support/server.js';
import { field, route } from '../http/support/routes.js';
import { authWorld, whoMiddleware, type AuthWorld } from './support.js';

let w: AuthWorld;
let server: TestServer;
let docs: { d1: number; p1: number; d2: number };
const reads = { count: 0 };

/** Counts the statements run through the server's `db`. */
class CountQueries implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    reads.count++;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

const output = (array = false) => ({ resource: 'Document', array, serialize: serializeDocument, policy: 'documents' });
const id = field('id', 'integer', { path: 'id' });
const target = { field: 'id', column: 'id', withDeleted: false };

function routes(): RouteDefinition[] {
  const m = ['who'];
  return [
    {
      ...route({ name: 'show', path: '/docs/{id}', fields: [id], middleware: m, output: output() }),
      authorize: { policy: 'documents', action: 'view', target },
    },
    {
      ...route({
        name: 'edit',
        method: 'PATCH',
        path: '/docs/{id}',
        fields: [id, field('title', 'string', { json: 'title' }, ['required'])],
        middleware: m,
      }),
      authorize: { policy: 'documents', action: 'update', target },
    },
    {
      ...route({
        name: 'bySlug',
        path: '/docs/by/{slug}',
        fields: [field('slug', 'string', { path: 'slug' })],
        middleware: m,
        output: output(),
      }),
      authorize: { policy: 'documents', action: 'view', target: { field: 'slug', column: 'slug', withDeleted: false } },
    },
    {
      ...route({ name: 'restore', method: 'POST', path: '/docs/{id}/restore', fields: [id], middleware: m }),
      authorize: { policy: 'documents', action: 'restore', target: { ...target, withDeleted: true } },
    },
    {
      ...route({ name: 'explode', path: '/docs/{id}/explode', fields: [id], middleware: m }),
      authorize: { policy: 'documents', action: 'explode', target },
    },
    { ...route({ name: 'all', path: '/docs', middleware: m, output: output(true) }) },
    {
      ...route({ name: 'owners', path: '/docs-with-owners', middleware: m, output: { ...output(true), policy: undefined } as never }),
      include: [{ name: 'owner', column: 'owner_id', table: 'users', key: 'id', serialize: serializeUser, policy: 'users' }],
    },
    {
      ...route({ name: 'archive', method: 'POST', path: '/archive', fields: [field('mode', 'string', { query: 'mode' })], middleware: m }),
      authorize: { policy: 'documents', action: 'update' },
    },
    { ...route({ name: 'ask', path: '/ask/{id}', fields: [id], middleware: m }) },
  ];
}

const handlers = (w: AuthWorld) => ({
  show: (_input: unknown, _ctx: unknown, doc: unknown) => doc,
  edit: (input: { title: string }, _ctx: unknown, doc: { id: number; title: string }) => ({ id: doc.id, was: doc.title, now: input.title }),
  bySlug: (_input: unknown, _ctx: unknown, doc: unknown) => doc,
  restore: (_input: unknown, _ctx: unknown, doc: { id: number; deleted_at: Date | null }) => ({
    id: doc.id,
    deleted: doc.deleted_at !== null,
  }),
  explode: () => ({ never: true }),
  all: () => w.f.database.db.selectFrom('documents').selectAll().orderBy('id').execute(),
  owners: () => w.f.database.db.selectFrom('documents').selectAll().orderBy('id').execute(),
  archive: async (input: { mode?: string }) => {
    let q = w.f.Document.query().where('status', '=', 'draft');
    if (input.mode === 'unscoped') q = q.unscoped();
    if (input.mode === 'purge') q = q.authorize('purge');
    if (input.mode === 'undeclared') q = q.authorize('frobnicate');
    if (input.mode === 'delete') return { n: await q.delete() };
    if (input.mode === 'force') return { n: await q.forceDelete() };
    return { n: await q.update({ status: 'archived' }) };
  },
  ask: async (input: { id: number }, ctx: RequestContext) => {
    const doc = await w.f.database.db.selectFrom('documents').selectAll().where('id', '=', input.id).executeTakeFirstOrThrow();
    const canUpdate = await ctx.can('documents.update', doc);
    const canSome = await ctx.can('documents.update');
    const visible = (
      await w.f.database.db
        .selectFrom('documents')
        .select('id')
        .where(await ctx.scope('documents.view'))
        .orderBy('id')
        .execute()
    ).map((r) => r.id);
    await ctx.authorize('documents.view', doc);
    return { canUpdate, canSome, visible };
  },
});

beforeAll(async () => {
  w = await authWorld();
  server = await startServer({
    routes: routes(),
    handlers: handlers(w) as never,
    services: { db: w.f.database.db.withPlugin(new CountQueries()), policies: w.policies } as unknown as Services,
    middleware: { who: whoMiddleware(w) },
    executionContext: true,
  });
});
afterAll(async () => {
  await closeAll();
  await w?.f.close();
});
beforeEach(async () => {
  docs = await w.seed();
  server.logs.length = 0;
});

async function call(method: string, path: string, as: { user?: number; abilities?: string } = {}, body?: unknown) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (as.user !== undefined) headers['x-user'] = String(as.user);
  if (as.abilities !== undefined) headers['x-abilities'] = as.abilities;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
}

describe('routes with a target | the row is read, checked and handed to the handler', () => {
  it("the owner gets the row; another user's draft is 404 with the words of a missing row; a published one they may see, but not change: 403", async () => {
    const own = await call('GET', `/docs/${docs.d1}`, { user: 1 });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: docs.d1, slug: 'd1', owner_id: 1 });
    const hidden = await call('GET', `/docs/${docs.d1}`, { user: 2 });
    const missing = await call('GET', '/docs/999999', { user: 2 });
    expect(hidden).toMatchObject({ status: 404, body: { detail: `Document ${docs.d1} does not exist.` } });
    expect(missing).toMatchObject({ status: 404, body: { detail: 'Document 999999 does not exist.' } });
    expect(Object.keys(hidden.body).sort()).toEqual(Object.keys(missing.body).sort());
    expect((await call('PATCH', `/docs/${docs.d1}`, { user: 2 }, { title: 'x' })).status).toBe(404);
    const seen = await call('PATCH', `/docs/${docs.p1}`, { user: 2 }, { title: 'x' });
    expect(seen).toMatchObject({ status: 403, body: { detail: `You may not do documents.update on Document ${docs.p1}.` } });
    const edited = await call('PATCH', `/docs/${docs.d1}`, { user: 1 }, { title: 'new' });
    expect(edited).toMatchObject({ status: 200, body: { id: docs.d1, was: 'd1', now: 'new' } });
  });

  it('an admin sees every row through the rule; a guest sees published rows only, and may change none (401 before any row is read)', async () => {
    expect((await call('GET', `/docs/${docs.d2}`, { user: 9 })).status).toBe(200);
    expect((await call('GET', `/docs/${docs.p1}`)).status).toBe(200);
    expect((await call('GET', `/docs/${docs.d1}`)).status).toBe(404);
    reads.count = 0;
    const guest = await call('PATCH', `/docs/${docs.d1}`, {}, { title: 'x' });
    const unknown = await call('PATCH', '/docs/999999', {}, { title: 'x' });
    expect(guest).toMatchObject({ status: 401, body: { detail: 'You are not signed in; sign in and try again.' } });
    expect(unknown.status).toBe(401);
    expect(reads.count).toBe(0);
  });

  it('a token without the ability is 403 insufficient_scope before any row is read; with it, the rule decides', async () => {
    reads.count = 0;
    const mine = await call('PATCH', `/docs/${docs.d1}`, { user: 1, abilities: 'docs:read' }, { title: 'x' });
    const unknown = await call('PATCH', '/docs/999999', { user: 1, abilities: 'docs:read' }, { title: 'x' });
    for (const res of [mine, unknown]) {
      expect(res.status).toBe(403);
      expect(res.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="docs:write"');
      expect(res.body.detail).toBe('This token may not do this: it lacks the ability docs:write (documents.update).');
    }
    expect(reads.count).toBe(0);
    expect((await call('PATCH', `/docs/${docs.d1}`, { user: 1, abilities: 'docs:write' }, { title: 'x' })).status).toBe(200);
    expect((await call('PATCH', `/docs/${docs.d2}`, { user: 1, abilities: 'docs:write' }, { title: 'x' })).status).toBe(404);
  });

  it('authorizes before the rules: a refused request is never told which fields are wrong', async () => {
    expect((await call('PATCH', `/docs/${docs.d2}`, { user: 1 }, {})).status).toBe(404);
    expect((await call('PATCH', `/docs/${docs.d1}`, { user: 1 }, {})).status).toBe(422);
  });

  it('finds a row by a unique column (slug); a soft-deleted row only where the route says withDeleted', async () => {
    expect((await call('GET', '/docs/by/d1', { user: 1 })).body).toMatchObject({ id: docs.d1 });
    expect(await call('GET', '/docs/by/d1', { user: 2 })).toMatchObject({ status: 404, body: { detail: 'Document d1 does not exist.' } });
    await w.f.database.db.updateTable('documents').set({ deleted_at: new Date() }).where('id', '=', docs.d1).execute();
    expect((await call('GET', `/docs/${docs.d1}`, { user: 1 })).status).toBe(404);
    expect(await call('POST', `/docs/${docs.d1}/restore`, { user: 1 })).toMatchObject({
      status: 200,
      body: { id: docs.d1, deleted: true },
    });
    expect((await call('POST', `/docs/${docs.d1}/restore`, { user: 2 })).status).toBe(404);
  });
});

describe('refusals and failures | observable, never an allow', () => {
  it('a policy that throws answers 500 (message hidden), logged with the request ID; the handler never runs', async () => {
    const res = await call('GET', `/docs/${docs.d1}/explode`, { user: 1 });
    expect(res).toMatchObject({ status: 500, body: { detail: 'An internal error occurred.' } });
    const line = server.logs.find((l) => l.level === 50);
    expect(line).toMatchObject({ reqId: res.body.request_id, code: 'BINDERY_POLICY_FAILED', statusCode: 500 });
    expect(String(line!.msg)).toContain('The policy action documents.explode failed: the policy blew up.');
  });

  it('logs each denial with policy, action, reason, status and user — no row data', async () => {
    await call('GET', `/docs/${docs.d2}`, { user: 1 });
    await call('PATCH', `/docs/${docs.d1}`, { user: 1, abilities: '' }, { title: 'x' });
    await call('PATCH', `/docs/${docs.d1}`, {}, { title: 'x' });
    const denials = server.logs.filter((l) => l.code === 'BINDERY_POLICY_DENIED');
    expect(
      denials.map(({ policy, action, reason, status, user, route: r }) => ({ policy, action, reason, status, user, route: r })),
    ).toEqual([
      { policy: 'documents', action: 'view', reason: 'rule', status: 404, user: '1', route: 'show' },
      { policy: 'documents', action: 'update', reason: 'ability', status: 403, user: '1', route: 'edit' },
      { policy: 'documents', action: 'update', reason: 'guest', status: 401, user: null, route: 'edit' },
    ]);
    // Nothing of the row: only these members (pino's own, the request ID, what was refused and to whom).
    const allowed = [
      'level',
      'time',
      'pid',
      'hostname',
      'reqId',
      'msg',
      'code',
      'policy',
      'action',
      'reason',
      'status',
      'user',
      'route',
      'ability',
    ];
    for (const line of denials) expect(Object.keys(line).filter((k) => !allowed.includes(k))).toEqual([]);
    expect(denials.map((l) => l.msg)).toEqual([
      'authorization denied: documents.view (rule)',
      'authorization denied: documents.update (ability)',
      'authorization denied: documents.update (guest)',
    ]);
    expect(denials.every((l) => l.level === 30 && typeof l.reqId === 'string')).toBe(true);
  });
});

describe('rows a route shows besides its target | narrowed by their policies', () => {
  it('a handler returning a list of a resource with a policy: only the rows the caller may view are sent', async () => {
    const ids = async (as: { user?: number }) => (await call('GET', '/docs', as)).body.map((d: { id: number }) => d.id);
    expect(await ids({ user: 1 })).toEqual([docs.d1, docs.p1]);
    expect(await ids({ user: 2 })).toEqual([docs.p1, docs.d2]);
    expect(await ids({})).toEqual([docs.p1]);
    expect(await ids({ user: 9 })).toEqual([docs.d1, docs.p1, docs.d2]);
  });

  it('an included relation is null where its policy does not let the caller view the related row', async () => {
    const owners = async (as: { user?: number; abilities?: string }) =>
      (await call('GET', '/docs-with-owners', as)).body.map((d: { owner: { id: number } | null }) => d.owner?.id ?? null);
    expect(await owners({ user: 1 })).toEqual([1, 1, null]);
    expect(await owners({ user: 2 })).toEqual([null, null, 2]);
    expect(await owners({ user: 9 })).toEqual([1, 1, 2]);
    expect(await owners({})).toEqual([null, null, null]);
    // The token's abilities govern the route, the rule the related rows.
    expect(await owners({ user: 1, abilities: '' })).toEqual([1, 1, null]);
  });
});

describe('bulk writes of the audit layer | narrowed by the policy inside a request', () => {
  const statuses = () => w.f.database.db.selectFrom('documents').select(['slug', 'status', 'deleted_at']).orderBy('id').execute();

  it("update touches only the caller's rows (the update scope), with one bulk entry naming the condition", async () => {
    expect((await call('POST', '/archive', { user: 1 })).body).toEqual({ n: 1 });
    expect((await statuses()).map((s) => s.status)).toEqual(['archived', 'published', 'draft']);
    const bulk = await w.f.database.db.selectFrom('audit_bulk').selectAll().execute();
    expect(bulk).toHaveLength(1);
    expect(bulk[0]!.where_clause).toMatchObject({
      sql: '"deleted_at" is null and "status" = $1 and "documents"."owner_id" = $2',
      args: ['draft', '1'],
    });
  });

  it("unscoped() writes on the app's behalf; authorize(action) takes another action's scope; an undeclared action touches nothing", async () => {
    expect((await call('POST', '/archive?mode=purge', { user: 9 })).body).toEqual({ n: 0 });
    expect((await call('POST', '/archive?mode=undeclared', { user: 1 })).body).toEqual({ n: 0 });
    expect((await call('POST', '/archive?mode=unscoped', { user: 2 })).body).toEqual({ n: 2 });
    expect((await statuses()).map((s) => s.status)).toEqual(['archived', 'published', 'archived']);
  });

  it('delete takes the delete scope; forceDelete falls back to it when the policy has no forceDelete', async () => {
    expect((await call('POST', '/archive?mode=delete', { user: 2 })).body).toEqual({ n: 1 });
    expect((await statuses()).map((s) => [s.slug, s.deleted_at !== null])).toEqual([
      ['d1', false],
      ['p1', false],
      ['d2', true],
    ]);
    expect((await call('POST', '/archive?mode=force', { user: 1 })).body).toEqual({ n: 1 });
    expect((await statuses()).map((s) => s.slug)).toEqual(['p1', 'd2']);
  });

  it('outside a request (a job, a command) a bulk write is not narrowed', async () => {
    expect(await w.f.Document.query().where('status', '=', 'draft').update({ status: 'archived' })).toBe(2);
  });
});

describe('ctx.can, ctx.authorize and ctx.scope | in a handler', () => {
  it('asks about a row, about some row, the rows, and refuses like a route', async () => {
    expect((await call('GET', `/ask/${docs.d1}`, { user: 1 })).body).toEqual({
      canUpdate: true,
      canSome: true,
      visible: [docs.d1, docs.p1],
    });
    expect((await call('GET', `/ask/${docs.p1}`, { user: 2 })).body).toEqual({
      canUpdate: false,
      canSome: true,
      visible: [docs.p1, docs.d2],
    });
    expect(await call('GET', `/ask/${docs.d1}`, { user: 2 })).toMatchObject({
      status: 404,
      body: { detail: `Document ${docs.d1} does not exist.` },
    });
    expect((await call('GET', `/ask/${docs.p1}`)).body).toEqual({ canUpdate: false, canSome: false, visible: [docs.p1] });
  });
});

describe('boot | a route with a policy needs authorization()', () => {
  it('stops the boot naming the route and the setup call', async () => {
    const boot = createHttpServer({
      routes: routes().slice(0, 1),
      handlers: { show: () => null },
      services: { db: w.f.database.db } as unknown as Services,
      middleware: { who: whoMiddleware(w) },
      environment: 'testing',
      debug: false,
      maxBodyBytes: 1024,
      requestTimeoutMs: 1000,
    });
    await expect(boot).rejects.toMatchObject({ code: 'BINDERY_SERVICE_NOT_SET_UP' });
    await expect(boot).rejects.toThrow(
      'Route "show" (test/show.yaml:1:1) is governed by the policy documents.view, but the app has no policies: add authorization({ policies }) (policies from generated/policies.ts) to the setup list of app/main.ts.',
    );
  });
});
