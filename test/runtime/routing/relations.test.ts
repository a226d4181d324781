/**
 * Many-to-many relations, computed fields and offset lists with filters
 * through relations (docs/schema-language.md "Many-to-many relations",
 * "Computed fields", "Included paths and batch loading", "Offset lists"),
 * over real HTTP on PostgreSQL, with the golden fixture's generated code
 * (test/generator/fixtures/full: schema/relations.yaml): a page of articles
 * with authors, tags, favorites and author.following costs a fixed number of
 * statements, whatever the page size; a streamed list reads them per batch.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Generated, Kysely } from 'kysely';
import pg from 'pg';
import { connectDatabase, type Database as OpenDatabase } from '../../../runtime/db/index.js';
import { CursorSealer } from '../../../runtime/crypto/cursor-codec.js';
import { KeyRing } from '../../../runtime/crypto/key-ring.js';
import { RequestAuth } from '../../../runtime/context/request-auth.js';
import { keysetBatches, runList, stream } from '../../../runtime/results/index.js';
import { Policies } from '../../../runtime/authorization/policies.js';
import type { Middleware } from '../../../runtime/http/handler.js';
import type { IncludePlan, RouteDefinition } from '../../../runtime/routing/route-table.js';
import type { Services } from '../../../runtime/http/context.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { closeAll, startServer } from '../http/support/server.js';
import { postgresPoolOf } from '../../../runtime/db/engines/postgres/index.js';

const EXPECTED = join(import.meta.dirname, '../../generator/fixtures/full/expected');
const FIXTURE = join(EXPECTED, 'migrations');

/**
 * A module of the fixture's generated code, loaded at run time: its types
 * augment the `bindery/*` modules for the fixture's own schema, so the
 * project's type check (which has the reference app's) must not see them
 * (the golden test type-checks them on their own).
 */
const fixture = (file: string): Promise<any> => import(/* @vite-ignore */ join(EXPECTED, file));
const { routes } = await fixture('routes.ts');
const { lists } = await fixture('lists.ts');
const { load } = await fixture('relations.ts');
const { policies } = await fixture('policies.ts');

/** The tables the tests touch. */
interface Database {
  users: { id: Generated<number>; name: string; email: string; password: string; admin: boolean };
  articles: { id: Generated<number>; author_id: number; slug: string; title: string; created_at: Date };
  tags: { id: Generated<number>; name: string };
  article_tags: { article_id: number; tag_id: number };
  favorites: { user_id: number; article_id: number };
  follows: { follower_id: number; followee_id: number };
}

/** Counts the statements sent to PostgreSQL (every pg client of the process). */
const counter = { count: 0 };
const clientQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  counter.count++;
  return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof clientQuery;

let database: TestDatabase;
let open: OpenDatabase<Database>;
let db: Kysely<Database>;

/** Signs the request in as the user named by `x-user` (a stand-in for the token guard). */
const viewer: Middleware = {
  before: (ctx) => {
    const id = ctx.request.headers['x-user'];
    if (typeof id === 'string')
      ctx.auth = new RequestAuth({
        via: 'token',
        id,
        load: async () => (await open.db.selectFrom('users').selectAll().where('id', '=', Number(id)).executeTakeFirst()) ?? null,
      });
    return undefined;
  },
};

/** The include plans without their policies (for an app without them). */
const withoutPolicies = (include: readonly IncludePlan[]): IncludePlan[] =>
  include.map(({ policy: _policy, include: nested, ...plan }) => ({ ...plan, ...(nested ? { include: withoutPolicies(nested) } : {}) }));

const fixtureRoutes = (names: readonly string[], keepPolicies: boolean): RouteDefinition[] =>
  (routes as readonly RouteDefinition[])
    .filter((r) => names.includes(r.name))
    .map((r) => ({
      ...r,
      middleware: ['viewer'],
      ...(r.include && !keepPolicies ? { include: withoutPolicies(r.include) } : {}),
    }));

const handlers = {
  'articles.index': (input: any, ctx: any) => lists['articles.index'](ctx, input),
  // The page's rows, built into the route's shape: undeclared members (id, tags) never reach the client.
  'articles.feed': async (input: any, ctx: any) => {
    const page = await lists['articles.feed'](ctx, input);
    return {
      articles: page.data.map((a: any) => ({ ...a, author: a.author?.name ?? null, tagList: a.tags.map((t: any) => t.name) })),
      articlesCount: page.total,
    };
  },
  'articles.show': async (input: { slug: string }, ctx: any) =>
    ctx.services.db.selectFrom('articles').selectAll().where('slug', '=', input.slug).executeTakeFirstOrThrow(),
  // Batches of 10: the paths are read per batch.
  'articles.export': () => stream(keysetBatches(db.selectFrom('articles').selectAll(), { key: 'id', size: 10 })),
};

async function serve(withPolicies: boolean): Promise<string> {
  const services = {
    db,
    cursors: new CursorSealer(new KeyRing(randomBytes(32))),
    ...(withPolicies ? { policies: new Policies({ users: policies.users } as never, [], { db: open.db } as never) } : {}),
  } as unknown as Services;
  const server = await startServer({
    routes: fixtureRoutes(['articles.index', 'articles.show', 'articles.feed', 'articles.export'], withPolicies),
    handlers,
    middleware: { viewer },
    services,
  });
  return server.url;
}

async function get(url: string, user?: number): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { headers: { accept: 'application/json', ...(user !== undefined ? { 'x-user': String(user) } : {}) } });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  database = await createTestDatabase('relations');
  open = await connectDatabase<Database>({ url: database.url });
  for (const name of (await readdir(FIXTURE)).sort()) await postgresPoolOf(open).query(await readFile(join(FIXTURE, name), 'utf8'));
  db = open.db;
  // Users 1..3 (3 is an admin); 3 follows 2, 1 follows 2.
  await open.db
    .insertInto('users')
    .values([1, 2, 3].map((i) => ({ name: `user${i}`, email: `u${i}@example.test`, password: 'x', admin: i === 3 })))
    .execute();
  await open.db
    .insertInto('follows')
    .values([
      { follower_id: 3, followee_id: 2 },
      { follower_id: 1, followee_id: 2 },
    ])
    .execute();
  await open.db
    .insertInto('tags')
    .values([{ name: 'red' }, { name: 'green' }, { name: 'blue' }])
    .execute();
  // 25 articles, one a second: article i by user (i % 2) + 1; tags red on every article, green on even ones.
  const start = Date.parse('2026-01-01T00:00:00Z');
  await open.db
    .insertInto('articles')
    .values(
      Array.from({ length: 25 }, (_, i) => ({
        author_id: (i % 2) + 1,
        slug: `a${i}`,
        title: `Article ${i}`,
        created_at: new Date(start + i * 1000),
      })),
    )
    .execute();
  const articles = await open.db.selectFrom('articles').select(['id', 'slug']).orderBy('id').execute();
  await open.db
    .insertInto('article_tags')
    .values(articles.flatMap((a, i) => [{ article_id: a.id, tag_id: 1 }, ...(i % 2 === 0 ? [{ article_id: a.id, tag_id: 2 }] : [])]))
    .execute();
  // User 1 favorites a24 and a23; user 2 favorites a24; user 3 favorites a0.
  const id = (slug: string) => articles.find((a) => a.slug === slug)!.id;
  await open.db
    .insertInto('favorites')
    .values([
      { user_id: 1, article_id: id('a24') },
      { user_id: 1, article_id: id('a23') },
      { user_id: 2, article_id: id('a24') },
      { user_id: 3, article_id: id('a0') },
    ])
    .execute();
});
afterAll(async () => {
  await closeAll();
  await open?.close();
  await database?.drop();
});

describe('offset list with included paths | GET /api/articles', () => {
  it('answers 20 articles newest first with the total, authors, author.following, tags, favorited and favoritesCount in 5 statements', async () => {
    const url = await serve(false);
    counter.count = 0;
    const page = await get(`${url}/api/articles?limit=20`, 1);
    expect(page.status).toBe(200);
    expect(counter.count).toBe(5);
    expect(page.body.total).toBe(25);
    expect(page.body).not.toHaveProperty('next');
    expect(page.body.data).toHaveLength(20);
    expect(page.body.data.map((a: any) => a.slug)).toEqual(Array.from({ length: 20 }, (_, i) => `a${24 - i}`));
    const [a24, a23] = page.body.data;
    expect(a24).toMatchObject({
      slug: 'a24',
      author_id: 1,
      author: { id: 1, name: 'user1', following: false },
      tags: [
        { id: 1, name: 'red' },
        { id: 2, name: 'green' },
      ],
      favorited: true,
      favoritesCount: 2,
    });
    expect(a24.author).not.toHaveProperty('password');
    expect(a23).toMatchObject({ author: { id: 2, following: true }, tags: [{ name: 'red' }], favorited: true, favoritesCount: 1 });
    expect(page.body.data[2]).toMatchObject({ slug: 'a22', favorited: false, favoritesCount: 0 });

    counter.count = 0;
    const small = await get(`${url}/api/articles?limit=3&offset=22`, 1);
    expect(counter.count).toBe(5);
    expect(small.body.total).toBe(25);
    expect(small.body.data.map((a: any) => a.slug)).toEqual(['a2', 'a1', 'a0']);
    expect(small.body.data[2]).toMatchObject({ favorited: false, favoritesCount: 1 });
  });

  it('gives a guest false for every viewer boolean, without the statement that reads them', async () => {
    const url = await serve(false);
    counter.count = 0;
    const page = await get(`${url}/api/articles?limit=2`);
    expect(page.status).toBe(200);
    expect(counter.count).toBe(4);
    expect(page.body.data[0]).toMatchObject({ slug: 'a24', favorited: false, favoritesCount: 2, author: { following: false } });
    expect(page.body.data[1]).toMatchObject({ slug: 'a23', favorited: false, author: { id: 2, following: false } });
  });

  it('filters through relations: a tag name, the author, and who favorited; totals follow the filters', async () => {
    const url = await serve(false);
    const slugs = (body: any) => body.data.map((a: any) => a.slug);
    const green = await get(`${url}/api/articles?tag=green&limit=3`);
    expect(green.body.total).toBe(13);
    expect(slugs(green.body)).toEqual(['a24', 'a22', 'a20']);
    const byUser2 = await get(`${url}/api/articles?author=user2`);
    expect(byUser2.body.total).toBe(12);
    expect(byUser2.body.data.every((a: any) => a.author_id === 2)).toBe(true);
    const fav = await get(`${url}/api/articles?favorited=user1`);
    expect(fav.body).toMatchObject({ total: 2 });
    expect(slugs(fav.body)).toEqual(['a24', 'a23']);
    const both = await get(`${url}/api/articles?favorited=user1&tag=green&author=user1`);
    expect(slugs(both.body)).toEqual(['a24']);
    expect((await get(`${url}/api/articles?tag=purple`)).body).toEqual({ data: [], total: 0 });
  });

  it('answers an empty page past the end with the total, limit=0 with the total alone, and 422 for a negative offset', async () => {
    const url = await serve(false);
    expect((await get(`${url}/api/articles?offset=100`)).body).toEqual({ data: [], total: 25 });
    expect((await get(`${url}/api/articles?limit=0&tag=green`)).body).toEqual({ data: [], total: 13 });
    const bad = await get(`${url}/api/articles?offset=-1`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toHaveProperty('offset');
  });

  it("keeps the related resource's policy: authors the caller may not view are null, their computed fields unread", async () => {
    const url = await serve(true);
    const mine = await get(`${url}/api/articles?limit=2`, 1);
    expect(mine.body.data[0]).toMatchObject({ slug: 'a24', author: { id: 1, following: false } });
    expect(mine.body.data[1]).toMatchObject({ slug: 'a23', author: null });
    const admin = await get(`${url}/api/articles?limit=2`, 3);
    expect(admin.body.data[1]).toMatchObject({ slug: 'a23', author: { id: 2, following: true } });
    const guest = await get(`${url}/api/articles?limit=2`);
    expect(guest.body.data.map((a: any) => a.author)).toEqual([null, null]);
  });
});

describe('an offset list answered in a shape | GET /api/feed', () => {
  it("answers the handler's envelope built from the page, with only the shape's members", async () => {
    const url = await serve(false);
    const feed = await get(`${url}/api/feed?limit=2&tag=green`, 1);
    expect(feed.status).toBe(200);
    expect(feed.body).toEqual({
      articles: [
        { slug: 'a24', title: 'Article 24', author: 'user1', tagList: ['red', 'green'], favorited: true, favoritesCount: 2 },
        { slug: 'a22', title: 'Article 22', author: 'user1', tagList: ['red', 'green'], favorited: false, favoritesCount: 0 },
      ],
      articlesCount: 13,
    });
  });
});

describe('filters through relations on a cursor list', () => {
  it('follows next page by page with a tag filter, each row with its paths', async () => {
    const offsetRoute = (routes as RouteDefinition[]).find((r) => r.name === 'articles.index')!;
    const { paging: _offset, ...cursorPlan } = offsetRoute.list!;
    const route: RouteDefinition = {
      ...offsetRoute,
      name: 'articles.cursor',
      list: cursorPlan,
      include: withoutPolicies(offsetRoute.include!),
    };
    const ctx = { services: { db, cursors: new CursorSealer(new KeyRing(randomBytes(32))) } };
    const slugs: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await runList<any>(ctx, route, { limit: 5, sort: '-created_at', filter_tag: 'green', ...(cursor ? { cursor } : {}) });
      slugs.push(...page.data.map((a) => a.slug));
      expect(page.data.every((a) => a.tags.some((t: any) => t.name === 'green'))).toBe(true);
      if (page.next === null) break;
      cursor = page.next;
    }
    expect(slugs).toEqual(Array.from({ length: 13 }, (_, i) => `a${24 - 2 * i}`));
  });
});

describe('included paths of a route with an output | GET /api/articles/{slug}', () => {
  it("adds the paths to the handler's row before it is serialized", async () => {
    const url = await serve(false);
    const one = await get(`${url}/api/articles/a23`, 3);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      slug: 'a23',
      author: { id: 2, name: 'user2', following: true },
      tags: [{ name: 'red' }],
      favorited: false,
      favoritesCount: 1,
    });
  });
});

describe('included paths of a streamed list | GET /api/export/articles', () => {
  it('adds the paths batch by batch: every article in id order, as GET /api/articles/{slug} gives each, in 5 statements a batch', async () => {
    const url = await serve(false);
    counter.count = 0;
    const res = await fetch(`${url}/api/export/articles`, { headers: { accept: 'application/json', 'x-user': '1' } });
    expect(res.status).toBe(200);
    const all = (await res.json()) as any[];
    // 25 articles in batches of 10, 10 and 5: each batch one read and four for its paths.
    expect(counter.count).toBe(15);
    expect(all.map((a: any) => a.slug)).toEqual(Array.from({ length: 25 }, (_, i) => `a${i}`));
    for (const slug of ['a0', 'a23', 'a24'])
      expect(all.find((a: any) => a.slug === slug)).toEqual((await get(`${url}/api/articles/${slug}`, 1)).body);
    expect(all[24]).toMatchObject({ author: { id: 1, following: false }, favorited: true, favoritesCount: 2 });
    expect(all[24].author).not.toHaveProperty('password');
  });
});

describe('load.<Resource> | the typed loader of generated/relations.ts', () => {
  it('loads the paths of rows a handler read, in batch, for the caller', async () => {
    const rows = await open.db.selectFrom('articles').selectAll().where('slug', 'in', ['a24', 'a23', 'a0']).orderBy('id').execute();
    const ctx = { services: { db }, auth: new RequestAuth({ via: 'token', id: '1', load: async () => null }) };
    counter.count = 0;
    const loaded = await load.Article(ctx, rows, ['author', 'author.following', 'tags', 'favorited', 'favoritesCount']);
    expect(counter.count).toBe(4);
    const summary = loaded.map((a: any) => ({
      slug: a.slug,
      author: a.author?.name ?? null,
      following: a.author?.following ?? null,
      tags: a.tags.map((t: any) => t.name),
      favorited: a.favorited,
      count: a.favoritesCount,
    }));
    expect(summary).toEqual([
      { slug: 'a0', author: 'user1', following: false, tags: ['red', 'green'], favorited: false, count: 1 },
      { slug: 'a23', author: 'user2', following: true, tags: ['red'], favorited: true, count: 1 },
      { slug: 'a24', author: 'user1', following: false, tags: ['red', 'green'], favorited: true, count: 2 },
    ]);
    const followers = await load.User(
      ctx,
      [await open.db.selectFrom('users').selectAll().where('id', '=', 2).executeTakeFirstOrThrow()],
      ['followers'],
    );
    expect(followers[0]!.followers.map((u: any) => u.id)).toEqual([1, 3]);
  });
});
