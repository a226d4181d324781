/**
 * GET /api/documents as a list route with `include: [owner]`
 * (docs/schema-language.md "List routes"): scoped by its handler to the
 * caller's live documents, each row with its owner — read with one query per
 * page and relation, never one per row.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import app from '../../app/main.js';
import { runList, type ListContext, type ListScope } from '../../runtime/results/index.js';
import { routes } from '../../generated/routes.js';
import { serializeUser } from '../../generated/serializers.js';
import type { RouteDefinition } from '../../runtime/routing/route-table.js';
import { created } from '../../runtime/results/index.js';
import { closeAll, startServer } from '../runtime/http/support/server.js';
import type { Database } from '../../generated/types.js';
import { createTestApp, type TestApp } from '../../runtime/app/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';
import { bearerFor } from './tokens-support.js';

let database: TestDatabase;
let t: TestApp<Database>;

beforeAll(async () => {
  database = await createTestDatabase('documents_list');
  t = await createTestApp<Database>(app, { databaseUrl: database.url, env: referenceAppEnv });
});
afterAll(async () => {
  await closeAll();
  await t?.close();
  await database?.drop();
});
beforeEach(async () => {
  await t.db.deleteFrom('documents').execute();
});

async function list(user: number, query = ''): Promise<{ status: number; body: any }> {
  const res = await fetch(`${t.url}/api/documents${query}`, {
    headers: { accept: 'application/json', authorization: `Bearer ${await bearerFor(t, user)}` },
  });
  return { status: res.status, body: await res.json() };
}

/** `count` documents of `owner` (the user and a token are made first: documents.owner_id references users.id). */
async function seed(owner: number, count: number, from = 0): Promise<void> {
  await bearerFor(t, owner);
  await t.db
    .insertInto('documents')
    .values(Array.from({ length: count }, (_, i) => ({ owner_id: owner, slug: `u${owner}-doc-${from + i}`, title: `Doc ${from + i}` })))
    .execute();
}

/**
 * The list route without its policy: the tests calling the list directly
 * exercise its queries and scopes, not the policy's narrowing (which
 * test/app/authorization-matrix.test.ts covers).
 */
const { authorize: _policy, ...listed } = routes.find((r) => r.name === 'documents.list')! as RouteDefinition;
const listRoute: RouteDefinition = { ...listed, include: listed.include!.map(({ policy: _users, ...inc }) => inc) };
type Listed = { owner_id: number; slug: string; owner: { id: number } | null };
const listDirect = (ctx: ListContext, input: object, scope?: ListScope<Database, 'documents'>) =>
  runList<Listed>(ctx, listRoute, input, scope);

/** Counts the statements a Kysely instance runs. */
class CountQueries implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.count++;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

describe('documents.list | GET /api/documents', () => {
  it("pages through the caller's live documents only, newest first, each with its owner (no hidden fields)", async () => {
    await seed(1, 25);
    await seed(2, 3);
    await t.db.updateTable('documents').set({ deleted_at: new Date() }).where('slug', '=', 'u1-doc-0').execute();
    const first = await list(1, '?limit=10');
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(10);
    expect(first.body.data[0]).toMatchObject({
      slug: 'u1-doc-24',
      owner_id: 1,
      owner: { id: 1, name: 'User 1', email: 'user1@example.test' },
    });
    expect(first.body.data[0].owner).not.toHaveProperty('password');
    expect(first.body.data[0]).not.toHaveProperty('share_token');
    const slugs: string[] = first.body.data.map((d: any) => d.slug);
    let next: string | null = first.body.next;
    while (next !== null) {
      const p = await list(1, `?limit=10&cursor=${encodeURIComponent(next)}`);
      expect(p.status).toBe(200);
      slugs.push(...p.body.data.map((d: any) => d.slug));
      next = p.body.next;
    }
    expect(slugs).toEqual(Array.from({ length: 24 }, (_, i) => `u1-doc-${24 - i}`));
    expect((await list(2)).body.data.map((d: any) => d.slug)).toEqual(['u2-doc-2', 'u2-doc-1', 'u2-doc-0']);
  });

  it("filters by slug prefix; a cursor of another caller's list still only shows the caller's rows", async () => {
    await seed(1, 12);
    await seed(2, 12);
    const prefixed = await list(1, '?filter[slug]=u1-doc-1&sort=id');
    expect(prefixed.body.data.map((d: any) => d.slug)).toEqual(['u1-doc-1', 'u1-doc-10', 'u1-doc-11']);
    const other = await list(2, '?limit=2');
    const mine = await list(1, `?limit=5&cursor=${encodeURIComponent(other.body.next)}`);
    expect(mine.status).toBe(200);
    expect(mine.body.data.every((d: any) => d.owner_id === 1)).toBe(true);
  });

  it('answers 400 for a cursor of another list (GET /notes)', async () => {
    await t.db
      .insertInto('notes')
      .values([{ title: 'a' }, { title: 'b' }])
      .execute();
    const notes = (await (await fetch(`${t.url}/notes?limit=1&sort=-id`, { headers: { accept: 'application/json' } })).json()) as {
      next: string;
    };
    const res = await list(1, `?sort=-id&cursor=${encodeURIComponent(notes.next)}`);
    expect(res.status).toBe(400);
    expect(res.body.errors.cursor).toBe('The cursor belongs to another list (notes.list); start again without it.');
  });

  it("a scope of the same shape takes each call's values; other scopes, and scopes with their own limit, get their own query", async () => {
    for (const owner of [1, 2, 3]) await seed(owner, 3);
    const ctx = { services: t.running.services };
    const owners = async (scope: ListScope<Database, 'documents'>, input = { limit: 20, sort: '-id' as const }) =>
      (await listDirect(ctx, input, scope)).data.map((d) => d.owner_id);
    for (const owner of [1, 2, 1, 3]) expect(await owners((q) => q.where('owner_id', '=', owner))).toEqual([owner, owner, owner]);
    expect(await owners((q) => q.where('owner_id', 'in', [2, 3]))).toEqual([3, 3, 3, 2, 2, 2]);
    expect(await owners((q) => q.where('owner_id', 'in', [1]))).toEqual([1, 1, 1]);
    expect(
      await owners((q) => q.where('owner_id', 'in', (s) => s.selectFrom('users').select('id').where('email', '=', 'user2@example.test'))),
    ).toEqual([2, 2, 2]);
    expect(await owners((q) => q.where('owner_id', '=', 3).where('created_at', '<=', new Date(Date.now() + 60_000)))).toEqual([3, 3, 3]);
    // Its own limit (a value after the list's): built whole, the list's limit still wins.
    expect(await owners((q) => q.where('owner_id', '=', 2).limit(1), { limit: 2, sort: '-id' })).toEqual([2, 2]);
    expect(await owners((q) => q.where('owner_id', '=', 1).limit(1), { limit: 20, sort: '-id' })).toEqual([1, 1, 1]);
    // A cursor and the scope's value side by side.
    const first = await listDirect(ctx, { limit: 2, sort: 'id' }, (q) => q.where('owner_id', '=', 3));
    const rest = await listDirect(ctx, { limit: 2, sort: 'id', cursor: first.next! }, (q) => q.where('owner_id', '=', 3));
    expect([...first.data, ...rest.data].map((d) => d.slug)).toEqual(['u3-doc-0', 'u3-doc-1', 'u3-doc-2']);
  });

  it('reads the owners of a page in one query: 2 statements for 100 rows of 5 owners, as for 1 row', async () => {
    for (const owner of [1, 2, 3, 4, 5]) await seed(owner, 20);
    const counter = new CountQueries();
    const ctx = { services: { ...t.running.services, db: t.db.withPlugin(counter) } };
    const page = await listDirect(ctx, { limit: 100, sort: '-id' });
    expect(page.data).toHaveLength(100);
    expect(new Set(page.data.map((d) => d.owner?.id))).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(page.data.every((d) => d.owner?.id === d.owner_id)).toBe(true);
    expect(counter.count).toBe(2);
    counter.count = 0;
    await listDirect(ctx, { limit: 1, sort: '-id' });
    expect(counter.count).toBe(2);
  });
});

describe('include on a route that is not a list | rows, lists of rows and created results', () => {
  it('adds the owner to every output row with one query for all of them, null when the key has no row', async () => {
    for (const owner of [1, 2, 3]) await seed(owner, 4);
    const counter = new CountQueries();
    const db = t.db.withPlugin(counter);
    // documents.show without its policy: these routes exercise the included relation alone.
    const { authorize: _show, ...shown_ } = routes.find((r) => r.name === 'documents.show')! as RouteDefinition;
    const base: RouteDefinition = { ...shown_, output: { resource: 'Document', array: false, serialize: shown_.output!.serialize } };
    const include = [{ name: 'owner', column: 'owner_id', table: 'users', key: 'id', serialize: serializeUser }];
    const one: RouteDefinition = { ...base, name: 'one', path: '/one/{id}', middleware: [], group: null, include };
    const all: RouteDefinition = {
      ...base,
      name: 'all',
      path: '/all',
      fields: [],
      validate: null,
      middleware: [],
      group: null,
      output: { ...base.output!, array: true },
      include,
    };
    const made: RouteDefinition = {
      ...base,
      name: 'made',
      method: 'POST',
      path: '/made',
      fields: [],
      validate: null,
      middleware: [],
      group: null,
      result: 'created',
      include,
    };
    const server = await startServer({
      routes: [one, all, made],
      services: { db } as never,
      handlers: {
        one: (input: { id: number }) => db.selectFrom('documents').selectAll().where('id', '=', input.id).executeTakeFirstOrThrow(),
        all: () => db.selectFrom('documents').selectAll().orderBy('id').execute(),
        made: async () =>
          created({ ...(await db.selectFrom('documents').selectAll().orderBy('id').limit(1).executeTakeFirstOrThrow()), owner_id: 999 }),
      },
    });
    const first = await db.selectFrom('documents').select('id').where('owner_id', '=', 2).orderBy('id').executeTakeFirstOrThrow();
    counter.count = 0;
    const shown = (await (await fetch(`${server.url}/one/${first.id}`, { headers: { accept: 'application/json' } })).json()) as any;
    expect(shown).toMatchObject({ id: first.id, owner_id: 2, owner: { id: 2, name: 'User 2' } });
    expect(shown.owner).not.toHaveProperty('password');
    expect(counter.count).toBe(2);
    counter.count = 0;
    const listed = (await (await fetch(`${server.url}/all`, { headers: { accept: 'application/json' } })).json()) as any[];
    expect(listed).toHaveLength(12);
    expect(listed.every((d) => d.owner.id === d.owner_id)).toBe(true);
    expect(counter.count).toBe(2);
    const res = await fetch(`${server.url}/made`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ owner_id: 999, owner: null });
  });
});
