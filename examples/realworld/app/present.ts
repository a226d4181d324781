/**
 * Rows completed with what their shapes add: an article's author (with
 * `following`), tags, `favorited` and `favoritesCount`; a comment's author.
 * Loaded in batch by the generated loader (docs/schema-language.md
 * "Included paths and batch loading"): one statement per relation for a
 * whole page.
 */
import type { RequestContext } from 'bindery/http';
import type { Loaded, OffsetPage } from 'bindery/results';
import { type ArticleRelations, load } from '../generated/relations.js';
import type { Article, AuthUser, Comment, User } from '../generated/types.js';

/** The caller's user ID, or null for a guest. */
export const viewerId = (ctx: RequestContext): number | null => (ctx.auth.id === null ? null : Number(ctx.auth.id));

/** The signed-in user's answer: `{ user: { email, token, username, bio, image } }`. */
export const presentUser = (user: User, token: string): { user: AuthUser } => ({ user: { ...user, token } });

type Included = Loaded<Article, ArticleRelations, 'author' | 'author.following' | 'tags' | 'favorited' | 'favoritesCount'>;

/** An article with its relations as the shapes `ArticleView` and `ArticleItem` have it. */
const view = (a: Included) => ({ ...a, author: a.author!, tagList: a.tags.map((t) => t.name).sort() });

/** `{ articles, articlesCount }` of a list's page. */
export const presentPage = (page: OffsetPage<Included>) => ({ articles: page.data.map(view), articlesCount: page.total });

/** `{ article }` of one row. */
export async function presentArticle(ctx: RequestContext, row: Article) {
  const [article] = await load.Article(ctx, [row], ['author', 'author.following', 'tags', 'favorited', 'favoritesCount']);
  return { article: view(article!) };
}

/** Comments with their authors. */
export async function presentComments(ctx: RequestContext, rows: Comment[]) {
  return (await load.Comment(ctx, rows, ['author', 'author.following'])).map((c) => ({ ...c, author: c.author! }));
}
