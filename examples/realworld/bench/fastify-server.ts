/**
 * Bench server: `GET /api/articles` of the RealWorld example written by hand
 * on Fastify 5 (a JSON schema for the query) and `pg`, doing the queries
 * the example does (bench/articles.ts): the `Authorization: Token` check
 * (the token row by ID, its SHA-256 compared in constant time, its user,
 * the last use written at most once a minute), the page and its count, then
 * one query each for the authors, the caller's follows, the favorite counts,
 * the caller's favorites and the tags. It answers the same JSON, byte for byte.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify from 'fastify';
import { listenForBench } from '../../../bench/servers/listen.js';
import { pool, requestId, SECURITY_HEADERS } from '../../../bench/servers/peer-work.js';

const app = Fastify({ logger: false, genReqId: (req) => requestId(req.headers['x-request-id']) });
const TOKEN = /^Token\s+(\d{1,16})\|(\S+)$/i;
const MINUTE = 60_000;

/** The caller's user ID, null for a guest, undefined for a bad token. */
async function caller(authorization: string | undefined): Promise<number | null | undefined> {
  if (authorization === undefined) return null;
  const m = TOKEN.exec(authorization.trim());
  if (m === null) return undefined;
  const token = (await pool.query('select * from "api_tokens" where "id" = $1', [Number(m[1])])).rows[0];
  if (token === undefined) return undefined;
  const given = createHash('sha256').update(m[2]!, 'utf8').digest();
  const stored = Buffer.from(token.token_hash, 'hex');
  if (stored.length !== given.length || !timingSafeEqual(given, stored)) return undefined;
  const now = Date.now();
  if (token.expires_at !== null && token.expires_at.getTime() <= now) return undefined;
  const user = (await pool.query('select * from "users" where "id" = $1', [Number(token.user_id)])).rows[0];
  if (user === undefined) return undefined;
  if (token.last_used_at === null || now - token.last_used_at.getTime() >= MINUTE)
    await pool.query('update "api_tokens" set "last_used_at" = $1 where "id" = $2 and ("last_used_at" is null or "last_used_at" <= $3)', [
      new Date(now),
      token.id,
      new Date(now - MINUTE),
    ]);
  return user.id as number;
}

interface Query {
  tag?: string;
  author?: string;
  favorited?: string;
  limit: number;
  offset: number;
}

const querySchema = {
  type: 'object',
  properties: {
    tag: { type: 'string' },
    author: { type: 'string' },
    favorited: { type: 'string' },
    limit: { type: 'integer', minimum: 0, maximum: 100, default: 20 },
    offset: { type: 'integer', minimum: 0, default: 0 },
  },
} as const;

app.get<{ Querystring: Query }>('/api/articles', { schema: { querystring: querySchema } }, async (request, reply) => {
  reply.header('x-request-id', request.id).headers(SECURITY_HEADERS);
  const viewer = await caller(request.headers.authorization);
  if (viewer === undefined) return reply.code(401).send({ errors: { body: ['Send a valid token.'] } });
  const q = request.query;
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.tag !== undefined)
    where.push(`id in (select at.article_id from article_tags at join tags t on t.id = at.tag_id where t.name = $${params.push(q.tag)})`);
  if (q.author !== undefined) where.push(`author_id in (select id from users where username = $${params.push(q.author)})`);
  if (q.favorited !== undefined)
    where.push(
      `id in (select f.article_id from favorites f join users u on u.id = f.user_id where u.username = $${params.push(q.favorited)})`,
    );
  const filter = where.length === 0 ? '' : ` where ${where.join(' and ')}`;
  const [page, count] = await Promise.all([
    pool.query(
      `select * from articles${filter} order by created_at desc, id desc limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, q.limit, q.offset],
    ),
    pool.query(`select count(*) as n from articles${filter}`, params),
  ]);
  const rows = page.rows;
  if (rows.length === 0) return { articles: [], articlesCount: Number(count.rows[0].n) };
  const ids = rows.map((r) => r.id);
  const authorIds = [...new Set(rows.map((r) => r.author_id))];
  const [authors, follows, counts, mine, tags] = await Promise.all([
    pool.query('select id, username, bio, image from users where id = any($1)', [authorIds]),
    viewer === null
      ? { rows: [] }
      : pool.query('select followed_id from follows where follower_id = $1 and followed_id = any($2)', [viewer, authorIds]),
    pool.query('select article_id, count(*) as n from favorites where article_id = any($1) group by article_id', [ids]),
    viewer === null
      ? { rows: [] }
      : pool.query('select article_id from favorites where user_id = $1 and article_id = any($2)', [viewer, ids]),
    pool.query('select at.article_id, t.name from article_tags at join tags t on t.id = at.tag_id where at.article_id = any($1)', [ids]),
  ]);
  const tagsOf = new Map<number, string[]>();
  for (const t of tags.rows) tagsOf.set(t.article_id, [...(tagsOf.get(t.article_id) ?? []), t.name]);
  const following = new Set(follows.rows.map((f) => f.followed_id));
  const authorOf = new Map(
    authors.rows.map((a) => [a.id, { username: a.username, bio: a.bio, image: a.image, following: following.has(a.id) }]),
  );
  const countOf = new Map(counts.rows.map((c) => [c.article_id, Number(c.n)]));
  const favorited = new Set(mine.rows.map((m) => m.article_id));
  return {
    articles: rows.map((r) => ({
      slug: r.slug,
      title: r.title,
      description: r.description,
      createdAt: r.created_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
      tagList: (tagsOf.get(r.id) ?? []).sort(),
      favorited: favorited.has(r.id),
      favoritesCount: countOf.get(r.id) ?? 0,
      author: authorOf.get(r.author_id),
    })),
    articlesCount: Number(count.rows[0].n),
  };
});

await listenForBench(app.server, () => app.listen({ host: '127.0.0.1', port: 0 }));
