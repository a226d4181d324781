/** Comments of an article. */
import { insertReturning } from 'bindery/db';
import { NotFoundError } from 'bindery/errors';
import type { RequestContext } from 'bindery/http';
import { noContent } from 'bindery/results';
import type { Handlers } from '../../generated/handlers.js';
import { presentComments, viewerId } from '../present.js';

async function articleId(ctx: RequestContext, slug: string): Promise<number> {
  const row = await ctx.services.db.selectFrom('articles').select('id').where('slug', '=', slug).executeTakeFirst();
  if (row === undefined) throw new NotFoundError(`No article has the slug ${slug}.`);
  return row.id;
}

export const commentsHandlers = {
  'comments.list': async (input, ctx) => {
    const id = await articleId(ctx, input.slug);
    const rows = await ctx.services.db
      .selectFrom('comments')
      .selectAll()
      .where('article_id', '=', id)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return { comments: await presentComments(ctx, rows) };
  },

  'comments.create': async (input, ctx) => {
    const values = { article_id: await articleId(ctx, input.slug), author_id: viewerId(ctx)!, body: input.comment.body };
    const row = await insertReturning(ctx.services.db, 'comments', values);
    return { comment: (await presentComments(ctx, [row]))[0]! };
  },

  'comments.delete': async (input, ctx, comment) => {
    if (comment.article_id !== (await articleId(ctx, input.slug))) throw new NotFoundError(`Comment ${input.id} does not exist.`);
    await ctx.services.db.deleteFrom('comments').where('id', '=', comment.id).execute();
    return noContent();
  },
} satisfies Partial<Handlers>;
