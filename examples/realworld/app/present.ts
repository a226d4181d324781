/**
 * The JSON shapes of the specification: the user (with its token), a
 * profile, an article with its author, tags and favorites, a comment.
 * Articles and comments are presented a page at a time, with one query per
 * relation whatever the page size.
 */
import type { RequestContext } from 'bindery/http';
import type { Article, Comment, User } from '../generated/types.js';
import { viewerId } from './conduit.js';

type Author = Pick<User, 'id' | 'username' | 'bio' | 'image'>;

/** `{ email, token, username, bio, image }`. */
export function presentUser(user: User, token: string) {
  return { user: { email: user.email, token, username: user.username, bio: user.bio, image: user.image } };
}

/** `{ username, bio, image, following }`. */
export function profileOf(user: Author, following: boolean) {
  return { username: user.username, bio: user.bio, image: user.image, following };
}

/** The authors of rows, with whether the caller follows each: one or two queries. */
async function authorsOf(ctx: RequestContext, ids: number[]) {
  const db = ctx.services.db;
  const viewer = viewerId(ctx);
  const unique = [...new Set(ids)];
  const [authors, followed] = await Promise.all([
    db.selectFrom('users').select(['id', 'username', 'bio', 'image']).where('id', 'in', unique).execute(),
    viewer === null
      ? []
      : db.selectFrom('follows').select('followed_id').where('follower_id', '=', viewer).where('followed_id', 'in', unique).execute(),
  ]);
  const following = new Set(followed.map((f) => f.followed_id));
  return new Map(authors.map((a) => [a.id, profileOf(a, following.has(a.id))]));
}

/** Articles as the specification shows them (without `body` in lists). */
export async function presentArticles(ctx: RequestContext, rows: Article[], withBody: boolean) {
  if (rows.length === 0) return [];
  const db = ctx.services.db;
  const viewer = viewerId(ctx);
  const ids = rows.map((r) => r.id);
  const [authors, counts, mine] = await Promise.all([
    authorsOf(
      ctx,
      rows.map((r) => r.author_id),
    ),
    db
      .selectFrom('favorites')
      .select((eb) => ['article_id', eb.fn.countAll<string>().as('n')])
      .where('article_id', 'in', ids)
      .groupBy('article_id')
      .execute(),
    viewer === null
      ? []
      : db.selectFrom('favorites').select('article_id').where('user_id', '=', viewer).where('article_id', 'in', ids).execute(),
  ]);
  const countOf = new Map(counts.map((c) => [c.article_id, Number(c.n)]));
  const favorited = new Set(mine.map((m) => m.article_id));
  return rows.map((r) => ({
    slug: r.slug,
    title: r.title,
    description: r.description,
    ...(withBody ? { body: r.body } : {}),
    tagList: r.tag_list,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    favorited: favorited.has(r.id),
    favoritesCount: countOf.get(r.id) ?? 0,
    author: authors.get(r.author_id)!,
  }));
}

/** `{ "article": … }` of one row. */
export async function presentArticle(ctx: RequestContext, row: Article) {
  return { article: (await presentArticles(ctx, [row], true))[0]! };
}

/** Comments with their authors. */
export async function presentComments(ctx: RequestContext, rows: Comment[]) {
  const authors =
    rows.length === 0
      ? new Map()
      : await authorsOf(
          ctx,
          rows.map((r) => r.author_id),
        );
  return rows.map((r) => ({
    id: r.id,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    body: r.body,
    author: authors.get(r.author_id)!,
  }));
}
