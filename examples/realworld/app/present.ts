/**
 * The members the shapes of the schema add to rows: a profile's
 * `following`, an article's author, favorites and tags. Articles and
 * comments are completed a page at a time, with one query per relation
 * whatever the page size.
 */
import type { RequestContext } from 'bindery/http';
import type { Article, AuthUser, Comment, Profile, User } from '../generated/types.js';

/** The caller's user ID, or null for a guest. */
export const viewerId = (ctx: RequestContext): number | null => (ctx.auth.id === null ? null : Number(ctx.auth.id));

/** The signed-in user's answer: `{ user: { email, token, username, bio, image } }`. */
export const presentUser = (user: User, token: string): { user: AuthUser } => ({ user: { ...user, token } });

/** The authors of rows as profiles, with whether the caller follows each: one or two queries. */
async function authorsOf(ctx: RequestContext, ids: number[]): Promise<Map<number, Profile>> {
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
  return new Map(authors.map((a) => [a.id, { ...a, following: following.has(a.id) }]));
}

/** Articles with their author, `favorited` (by the caller) and `favoritesCount`. */
export async function presentArticles(ctx: RequestContext, rows: Article[]) {
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
    ...r,
    favorited: favorited.has(r.id),
    favoritesCount: countOf.get(r.id) ?? 0,
    author: authors.get(r.author_id)!,
  }));
}

/** `{ article }` of one row. */
export async function presentArticle(ctx: RequestContext, row: Article) {
  return { article: (await presentArticles(ctx, [row]))[0]! };
}

/** Comments with their authors. */
export async function presentComments(ctx: RequestContext, rows: Comment[]) {
  const authors =
    rows.length === 0
      ? new Map<number, Profile>()
      : await authorsOf(
          ctx,
          rows.map((r) => r.author_id),
        );
  return rows.map((r) => ({ ...r, author: authors.get(r.author_id)! }));
}
