/** What a page of articles costs: a fixed number of SQL statements, whatever its size. */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { boot, call, register, write, type Kit } from './support.js';

let t: Kit;
let reader: string;
const statements: string[] = [];
const query = pg.Client.prototype.query;

beforeAll(async () => {
  t = await boot();
  const authors = [await register(t, 'a1'), await register(t, 'a2'), await register(t, 'a3')];
  reader = await register(t, 'reader');
  await call(t, 'POST', '/profiles/a1/follow', undefined, reader);
  for (let i = 0; i < 25; i++) {
    const slug = await write(t, authors[i % 3]!, `Counted ${i}`, ['counted', `tag${i % 4}`]);
    if (i % 2 === 0) await call(t, 'POST', `/articles/${slug}/favorite`, undefined, reader);
  }
  // Every statement the app sends from now on (the app runs in this process).
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    statements.push(typeof first === 'string' ? first : (first?.text ?? ''));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
});
afterAll(async () => {
  pg.Client.prototype.query = query;
  await t?.close();
});

async function count(path: string, token?: string): Promise<number> {
  statements.length = 0;
  const res = await call(t, 'GET', path, undefined, token);
  expect(res.status).toBe(200);
  return statements.length;
}

it('reads a page of 20 articles with authors, tags and favorites in 5 statements, as a page of 2', async () => {
  // The page with its total, then one each: authors, tags, favorites (count and the caller's), follows.
  expect(await count('/articles?limit=20')).toBeLessThanOrEqual(5);
  expect(await count('/articles?limit=20')).toBe(await count('/articles?limit=2'));
  // Signed in: the token and its user besides.
  const signedIn = await count('/articles?limit=20', reader);
  expect(signedIn - 2).toBeLessThanOrEqual(5);
  expect(signedIn).toBe(await count('/articles?limit=2', reader));
  const page = await call(t, 'GET', '/articles?limit=20', undefined, reader);
  expect(page.body.articles).toHaveLength(20);
  expect(page.body.articlesCount).toBe(25);
  expect(page.body.articles.filter((a: { favorited: boolean }) => a.favorited)).toHaveLength(10); // the even ones of 24 to 5
  expect(page.body.articles.filter((a: { author: { following: boolean } }) => a.author.following).length).toBeGreaterThan(0);
});
