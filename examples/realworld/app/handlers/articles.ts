/** Articles: lists and the feed, one article, writing, favorites and tags. */
import { randomBytes } from 'node:crypto';
import slugify from '@sindresorhus/slugify';
import { insertIfAbsent, insertReturning, updateReturning } from 'bindery/db';
import { NotFoundError } from 'bindery/errors';
import type { RequestContext } from 'bindery/http';
import { created, noContent } from 'bindery/results';
import type { Handlers } from '../../generated/handlers.js';
import { lists } from '../../generated/lists.js';
import { presentArticle, presentPage, viewerId } from '../present.js';

/**
 * A URL word from the title — transliterated, lower case, words joined by
 * `-` ("Crème brûlée" → `creme-brulee`), `article` when nothing is left —
 * made unique with a random suffix when taken.
 */
async function slugFor(ctx: RequestContext, title: string): Promise<string> {
  const base = slugify(title, { decamelize: false }).slice(0, 200).replace(/-+$/, '') || 'article';
  const taken = await ctx.services.db.selectFrom('articles').select('id').where('slug', '=', base).executeTakeFirst();
  return taken === undefined ? base : `${base}-${randomBytes(4).toString('hex')}`;
}

/**
 * Link the article to exactly these tags (made when new), each trimmed; a
 * blank one is dropped, as front ends send `""` for an empty tag field.
 */
async function setTags(ctx: RequestContext, articleId: number, names: readonly string[]): Promise<void> {
  const db = ctx.services.db;
  await db.deleteFrom('article_tags').where('article_id', '=', articleId).execute();
  const unique = [...new Set(names.map((name) => name.trim()).filter((name) => name !== ''))].sort();
  if (unique.length === 0) return;
  await insertIfAbsent(
    db,
    'tags',
    unique.map((name) => ({ name })),
    { conflict: ['name'] },
  );
  const tags = db
    .selectFrom('tags')
    .select((eb) => [eb.val(articleId).as('article_id'), 'id as tag_id'])
    .where('name', 'in', unique);
  await db.insertInto('article_tags').columns(['article_id', 'tag_id']).expression(tags).execute();
}

export const articlesHandlers = {
  'articles.list': async (input, ctx) => presentPage(await lists['articles.list'](ctx, input)),

  // The articles of the authors the caller follows.
  'articles.feed': async (input, ctx) => {
    const followed = ctx.services.db.selectFrom('follows').select('followed_id').where('follower_id', '=', viewerId(ctx)!);
    return presentPage(await lists['articles.feed'](ctx, input, (q) => q.where('author_id', 'in', followed)));
  },

  'articles.show': (_input, ctx, article) => presentArticle(ctx, article),

  'articles.create': async ({ article: input }, ctx) => {
    const values = {
      slug: await slugFor(ctx, input.title),
      title: input.title,
      description: input.description,
      body: input.body,
      author_id: viewerId(ctx)!,
    };
    const row = await insertReturning(ctx.services.db, 'articles', values);
    await setTags(ctx, row.id, input.tagList ?? []);
    return created(await presentArticle(ctx, row));
  },

  'articles.update': async ({ article: input }, ctx, article) => {
    const changes = {
      slug: input.title === undefined || input.title === article.title ? undefined : await slugFor(ctx, input.title),
      title: input.title,
      description: input.description,
      body: input.body,
      updated_at: new Date(),
    };
    const row = await updateReturning(ctx.services.db, 'articles', article.id, changes);
    if (row === undefined) throw new NotFoundError(`No article has the slug ${article.slug}.`);
    if (input.tagList !== undefined) await setTags(ctx, row.id, input.tagList);
    return presentArticle(ctx, row);
  },

  'articles.delete': async (_input, ctx, article) => {
    await ctx.services.db.deleteFrom('articles').where('id', '=', article.id).execute();
    return noContent();
  },

  'articles.favorite': async (_input, ctx, article) => {
    const favorite = { user_id: viewerId(ctx)!, article_id: article.id };
    await insertIfAbsent(ctx.services.db, 'favorites', favorite, { conflict: ['user_id', 'article_id'] });
    return presentArticle(ctx, article);
  },

  'articles.unfavorite': async (_input, ctx, article) => {
    await ctx.services.db.deleteFrom('favorites').where('user_id', '=', viewerId(ctx)!).where('article_id', '=', article.id).execute();
    return presentArticle(ctx, article);
  },

  'tags.list': async (_input, ctx) => {
    const db = ctx.services.db;
    const used = await db
      .selectFrom('tags')
      .select('name')
      .where('id', 'in', db.selectFrom('article_tags').select('tag_id'))
      .orderBy('name')
      .execute();
    return { tags: used.map((t) => t.name) };
  },
} satisfies Partial<Handlers>;
