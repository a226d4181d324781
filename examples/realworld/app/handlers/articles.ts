/** Articles: lists and the feed, one article, writing, favorites and tags. */
import { randomBytes } from 'node:crypto';
import { sql, type SelectQueryBuilder } from 'kysely';
import type { RequestContext } from 'bindery/http';
import { created, noContent } from 'bindery/results';
import type { Handlers } from '../../generated/handlers.js';
import type { Database } from '../../generated/types.js';
import { presentArticle, presentArticles, viewerId } from '../present.js';

type ArticleQuery = SelectQueryBuilder<Database, 'articles', object>;

/** One page, newest first, and the number of articles in all: `{ articles, articlesCount }`. */
async function page(ctx: RequestContext, q: ArticleQuery, limit: number, offset: number) {
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { articles: await presentArticles(ctx, rows), articlesCount: Number(count.n) };
}

/** A URL word from the title, made unique with a random suffix when taken. */
async function slugFor(ctx: RequestContext, title: string): Promise<string> {
  const words = title
    .toLowerCase()
    .normalize('NFKD')
    .match(/[a-z0-9]+/g) ?? ['article'];
  const base = words.join('-').slice(0, 200);
  const taken = await ctx.services.db.selectFrom('articles').select('id').where('slug', '=', base).executeTakeFirst();
  return taken === undefined ? base : `${base}-${randomBytes(4).toString('hex')}`;
}

const tagsOf = (tags: readonly string[] | undefined) => [...new Set(tags ?? [])].sort();

export const articlesHandlers = {
  'articles.list': async (input, ctx) => {
    const db = ctx.services.db;
    let q: ArticleQuery = db.selectFrom('articles');
    if (input.tag !== undefined) q = q.where(sql<boolean>`tag_list @> ARRAY[${input.tag}]::text[]`);
    if (input.author !== undefined)
      q = q.where('author_id', 'in', db.selectFrom('users').select('id').where('username', '=', input.author));
    if (input.favorited !== undefined) {
      const fans = db
        .selectFrom('favorites')
        .innerJoin('users', 'users.id', 'favorites.user_id')
        .where('users.username', '=', input.favorited);
      q = q.where('id', 'in', fans.select('favorites.article_id'));
    }
    return page(ctx, q, input.limit, input.offset);
  },

  'articles.feed': async (input, ctx) => {
    const db = ctx.services.db;
    const followed = db.selectFrom('follows').select('followed_id').where('follower_id', '=', viewerId(ctx)!);
    return page(ctx, db.selectFrom('articles').where('author_id', 'in', followed), input.limit, input.offset);
  },

  'articles.show': (_input, ctx, article) => presentArticle(ctx, article),

  'articles.create': async ({ article: input }, ctx) => {
    const values = {
      slug: await slugFor(ctx, input.title),
      title: input.title,
      description: input.description,
      body: input.body,
      tag_list: tagsOf(input.tagList),
      author_id: viewerId(ctx)!,
    };
    const row = await ctx.services.db.insertInto('articles').values(values).returningAll().executeTakeFirstOrThrow();
    return created(await presentArticle(ctx, row));
  },

  'articles.update': async ({ article: input }, ctx, article) => {
    const changes = {
      slug: input.title === undefined || input.title === article.title ? undefined : await slugFor(ctx, input.title),
      title: input.title,
      description: input.description,
      body: input.body,
      tag_list: input.tagList === undefined ? undefined : tagsOf(input.tagList),
      updated_at: new Date(),
    };
    const row = await ctx.services.db
      .updateTable('articles')
      .set(changes)
      .where('id', '=', article.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return presentArticle(ctx, row);
  },

  'articles.delete': async (_input, ctx, article) => {
    await ctx.services.db.deleteFrom('articles').where('id', '=', article.id).execute();
    return noContent();
  },

  'articles.favorite': async (_input, ctx, article) => {
    await ctx.services.db
      .insertInto('favorites')
      .values({ user_id: viewerId(ctx)!, article_id: article.id })
      .onConflict((oc) => oc.columns(['user_id', 'article_id']).doNothing())
      .execute();
    return presentArticle(ctx, article);
  },

  'articles.unfavorite': async (_input, ctx, article) => {
    await ctx.services.db.deleteFrom('favorites').where('user_id', '=', viewerId(ctx)!).where('article_id', '=', article.id).execute();
    return presentArticle(ctx, article);
  },

  'tags.list': async (_input, ctx) => {
    const rows = await sql<{ tag: string }>`select distinct unnest(tag_list) as tag from articles order by tag`.execute(ctx.services.db);
    return { tags: rows.rows.map((r) => r.tag) };
  },
} satisfies Partial<Handlers>;
