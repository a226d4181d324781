/** Articles, the feed, favorites, comments and tags, as the RealWorld specification has them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boot, call, register, write, type Kit } from './support.js';

let t: Kit;
let author: string;
let reader: string;
beforeAll(async () => {
  t = await boot();
  author = await register(t, 'author');
  reader = await register(t, 'reader');
});
afterAll(() => t?.close());

describe('articles', () => {
  it('creates an article (201) with its slug, sorted tags and author', async () => {
    const res = await call(
      t,
      'POST',
      '/articles',
      {
        article: {
          title: 'How to train your dragon',
          description: 'Ever wonder how?',
          body: 'Very carefully.',
          tagList: ['training', 'dragons'],
        },
      },
      author,
    );
    expect(res.status).toBe(201);
    expect(res.body.article).toEqual({
      slug: 'how-to-train-your-dragon',
      title: 'How to train your dragon',
      description: 'Ever wonder how?',
      body: 'Very carefully.',
      tagList: ['dragons', 'training'],
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.stringMatching(/Z$/),
      favorited: false,
      favoritesCount: 0,
      author: { username: 'author', bio: '', image: null, following: false },
    });
    // The same title again gets a slug of its own.
    const again = await write(t, author, 'How to train your dragon');
    expect(again).toMatch(/^how-to-train-your-dragon-[0-9a-f]{8}$/);
  });

  it('makes slugs of accented and other non-ASCII titles by transliterating them', async () => {
    expect(await write(t, author, 'Crème brûlée')).toBe('creme-brulee');
    expect(await write(t, author, 'Déjà vu — ça va?')).toBe('deja-vu-ca-va');
    expect(await write(t, author, 'Große Straße')).toBe('grosse-strasse');
    expect(await write(t, author, 'Ærø & Łódź')).toBe('aero-and-lodz');
    expect(await write(t, author, '日本語')).toBe('article');
  });

  it('drops blank tags (a front end’s empty tag field) and trims the others; /api/tags never lists ""', async () => {
    const res = await call(
      t,
      'POST',
      '/articles',
      { article: { title: 'Tagged', description: 'd', body: 'b', tagList: ['', '  ', ' blank-free ', 'blank-free'] } },
      author,
    );
    expect(res.status).toBe(201);
    expect(res.body.article.tagList).toEqual(['blank-free']);
    const updated = await call(t, 'PUT', `/articles/${res.body.article.slug}`, { article: { tagList: [''] } }, author);
    expect(updated.body.article.tagList).toEqual([]);
    await write(t, author, 'Tagged again', ['', 'kept']);
    const tags = (await call(t, 'GET', '/tags')).body.tags as string[];
    expect(tags).toContain('kept');
    expect(tags).not.toContain('');
    expect(tags.every((tag) => tag === tag.trim())).toBe(true);
  });

  it('refuses an article without a title (422) or from a guest (401)', async () => {
    const bad = await call(t, 'POST', '/articles', { article: { description: 'd', body: 'b' } }, author);
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ errors: { title: ["can't be empty"] } });
    expect((await call(t, 'POST', '/articles', { article: { title: 'x', description: 'd', body: 'b' } })).status).toBe(401);
  });

  it('shows an article to anyone; 404 for an unknown slug', async () => {
    const slug = await write(t, author, 'Shown');
    const res = await call(t, 'GET', `/articles/${slug}`);
    expect(res.status).toBe(200);
    expect(res.body.article).toMatchObject({ slug, title: 'Shown', body: 'All of Shown', favorited: false });
    const missing = await call(t, 'GET', '/articles/no-such-article');
    expect(missing.status).toBe(404);
    expect(missing.body.errors.body).toHaveLength(1);
  });

  it('updates an article for its author only: a new title gives a new slug; 403 for another user', async () => {
    const slug = await write(t, author, 'Old title', ['x']);
    expect((await call(t, 'PUT', `/articles/${slug}`, { article: { body: 'Hijacked' } }, reader)).status).toBe(403);
    expect((await call(t, 'PUT', `/articles/${slug}`, { article: { body: 'x' } })).status).toBe(401);
    const res = await call(t, 'PUT', `/articles/${slug}`, { article: { title: 'New title', body: 'With two hands' } }, author);
    expect(res.status).toBe(200);
    expect(res.body.article).toMatchObject({
      slug: 'new-title',
      title: 'New title',
      body: 'With two hands',
      description: 'About Old title',
      tagList: ['x'],
    });
    expect((await call(t, 'GET', `/articles/${slug}`)).status).toBe(404);
    expect((await call(t, 'GET', '/articles/new-title')).body.article.body).toBe('With two hands');
    expect((await call(t, 'PUT', '/articles/unknown', { article: { body: 'x' } }, author)).status).toBe(404);
  });

  it('deletes an article for its author only (204; 403 for another user)', async () => {
    const slug = await write(t, author, 'Short lived');
    expect((await call(t, 'DELETE', `/articles/${slug}`, undefined, reader)).status).toBe(403);
    expect((await call(t, 'DELETE', `/articles/${slug}`, undefined, author)).status).toBe(204);
    expect((await call(t, 'GET', `/articles/${slug}`)).status).toBe(404);
  });

  it('favorites and unfavorites: favorited for the caller, favoritesCount for all', async () => {
    const slug = await write(t, author, 'Loved');
    const fav = await call(t, 'POST', `/articles/${slug}/favorite`, undefined, reader);
    expect(fav.status).toBe(200);
    expect(fav.body.article).toMatchObject({ favorited: true, favoritesCount: 1 });
    expect((await call(t, 'POST', `/articles/${slug}/favorite`, undefined, reader)).body.article.favoritesCount).toBe(1);
    expect((await call(t, 'GET', `/articles/${slug}`)).body.article).toMatchObject({ favorited: false, favoritesCount: 1 });
    expect((await call(t, 'GET', `/articles/${slug}`, undefined, author)).body.article.favorited).toBe(false);
    const unfav = await call(t, 'DELETE', `/articles/${slug}/favorite`, undefined, reader);
    expect(unfav.body.article).toMatchObject({ favorited: false, favoritesCount: 0 });
    expect((await call(t, 'POST', `/articles/${slug}/favorite`)).status).toBe(401);
    expect((await call(t, 'POST', '/articles/unknown/favorite', undefined, reader)).status).toBe(404);
  });
});

describe('article lists', () => {
  let lister: string;
  let fan: string;
  beforeAll(async () => {
    lister = await register(t, 'lister');
    fan = await register(t, 'listfan');
    for (let i = 1; i <= 5; i++) await write(t, lister, `Listed ${i}`, i % 2 === 0 ? ['even', 'listed'] : ['listed']);
    await call(t, 'POST', '/articles/listed-2/favorite', undefined, fan);
  });

  it('lists newest first, without bodies, with the total; limit and offset page', async () => {
    const all = await call(t, 'GET', '/articles?author=lister');
    expect(all.status).toBe(200);
    expect(all.body.articlesCount).toBe(5);
    expect(all.body.articles.map((a: { title: string }) => a.title)).toEqual(['Listed 5', 'Listed 4', 'Listed 3', 'Listed 2', 'Listed 1']);
    expect(all.body.articles[0]).not.toHaveProperty('body');
    const page = await call(t, 'GET', '/articles?author=lister&limit=2&offset=2');
    expect(page.body.articlesCount).toBe(5);
    expect(page.body.articles.map((a: { title: string }) => a.title)).toEqual(['Listed 3', 'Listed 2']);
    expect((await call(t, 'GET', '/articles?limit=101')).status).toBe(422);
  });

  it('filters by tag, by author and by who favorited, together', async () => {
    const even = await call(t, 'GET', '/articles?tag=even');
    expect(even.body.articles.map((a: { title: string }) => a.title)).toEqual(['Listed 4', 'Listed 2']);
    const favorited = await call(t, 'GET', '/articles?favorited=listfan', undefined, fan);
    expect(favorited.body).toMatchObject({ articlesCount: 1, articles: [{ title: 'Listed 2', favorited: true, favoritesCount: 1 }] });
    const both = await call(t, 'GET', '/articles?tag=even&author=lister&favorited=listfan');
    expect(both.body.articlesCount).toBe(1);
    const none = await call(t, 'GET', '/articles?author=nobody');
    expect(none.body).toEqual({ articles: [], articlesCount: 0 });
  });

  it('feeds the articles of followed authors only (401 for a guest)', async () => {
    const follower = await register(t, 'follower');
    expect((await call(t, 'GET', '/articles/feed', undefined, follower)).body).toEqual({ articles: [], articlesCount: 0 });
    await call(t, 'POST', '/profiles/lister/follow', undefined, follower);
    const feed = await call(t, 'GET', '/articles/feed?limit=3', undefined, follower);
    expect(feed.body.articlesCount).toBe(5);
    expect(feed.body.articles).toHaveLength(3);
    expect(feed.body.articles[0].author).toEqual({ username: 'lister', bio: '', image: null, following: true });
    expect((await call(t, 'GET', '/articles/feed')).status).toBe(401);
  });

  it('lists the tags in use', async () => {
    const res = await call(t, 'GET', '/tags');
    expect(res.status).toBe(200);
    expect(res.body.tags).toEqual(expect.arrayContaining(['dragons', 'even', 'listed', 'training']));
  });
});

describe('comments', () => {
  it('adds, lists (to anyone) and deletes comments; only their author deletes them', async () => {
    const slug = await write(t, author, 'Discussed');
    const added = await call(t, 'POST', `/articles/${slug}/comments`, { comment: { body: 'Thank you so much!' } }, reader);
    expect(added.status).toBe(200);
    expect(added.body.comment).toEqual({
      id: expect.any(Number),
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
      body: 'Thank you so much!',
      author: { username: 'reader', bio: '', image: null, following: false },
    });
    const id = added.body.comment.id as number;
    const listed = await call(t, 'GET', `/articles/${slug}/comments`);
    expect(listed.body.comments.map((c: { id: number }) => c.id)).toEqual([id]);
    expect((await call(t, 'DELETE', `/articles/${slug}/comments/${id}`, undefined, author)).status).toBe(403);
    expect((await call(t, 'DELETE', `/articles/${slug}/comments/${id}`)).status).toBe(401);
    expect((await call(t, 'DELETE', `/articles/${slug}/comments/${id}`, undefined, reader)).status).toBe(204);
    expect((await call(t, 'GET', `/articles/${slug}/comments`)).body).toEqual({ comments: [] });
  });

  it('422 for an empty comment, 404 for an unknown article or comment', async () => {
    const slug = await write(t, author, 'Quiet');
    const empty = await call(t, 'POST', `/articles/${slug}/comments`, { comment: { body: '' } }, reader);
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual({ errors: { body: ["can't be empty"] } });
    expect((await call(t, 'GET', '/articles/unknown/comments')).status).toBe(404);
    expect((await call(t, 'POST', '/articles/unknown/comments', { comment: { body: 'x' } }, reader)).status).toBe(404);
    expect((await call(t, 'DELETE', `/articles/${slug}/comments/999999`, undefined, reader)).status).toBe(404);
  });
});
