/**
 * Benchmark: `GET /api/articles?limit=20` of the RealWorld example
 * (examples/realworld) — 20 articles with their authors, tags and favorites,
 * read as a signed-in user (`Authorization: Token`, so `favorited` and
 * `following` are the caller's) — against the same route written by hand on
 * Fastify + pg (bench/fastify-server.ts), which answers the same
 * bytes (checked before measuring).
 *
 * Run by the repository's `npm run bench -- realworld` (bench/run.ts). Method as
 * the repository's bench/http.ts: fresh server processes each round, a warm-up,
 * each server alone (its throughput) and both side by side (the CPU time
 * per request from /proc, the verdict figure); medians over the rounds.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startApp } from 'bindery/app';
import type { AuthService } from 'bindery/auth';
import type { ApiTokens } from 'bindery/auth/tokens';
import { benchDatabase } from '../../../bench/support/database.js';
import { pinProcesses, runLoad, startServer, type BenchServer } from '../../../bench/support/load.js';
import app from '../app/main.js';

export interface RealworldBenchOptions {
  readonly seconds: number;
  readonly rounds: number;
  readonly connections: number;
}

const SERVERS = [
  { key: 'fastify', name: 'Fastify + pg (by hand)', script: 'fastify-server.ts' },
  { key: 'bindery', name: 'bindery (examples/realworld)', script: 'bindery-server.ts' },
] as const;

/** One server's medians: throughput and p99 alone, CPU µs per request side by side. */
export interface RealworldRow {
  readonly name: string;
  readonly rps: number;
  readonly p99: number;
  readonly cpuUs: number;
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Migrate, then 6 authors, 40 articles (2 or 3 tags each), favorites and follows, and the caller's token. */
export async function makeFixture(databaseUrl: string): Promise<{ env: Record<string, string>; authorization: string }> {
  const env = {
    APP_ENV: 'production',
    APP_KEY: `base64:${randomBytes(32).toString('base64')}`,
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
  };
  const running = await startApp(app, { env: { ...env, HTTP_ADDR: '127.0.0.1:0' }, migrate: true, handleSignals: false, out: () => {} });
  try {
    const db = running.db;
    const password = await (running.services.auth as AuthService).hashPassword('bench password');
    const users = await db
      .insertInto('users')
      .values(Array.from({ length: 6 }, (_, i) => ({ email: `user${i}@example.test`, username: `user${i}`, password, bio: `Bio ${i}` })))
      .returning('id')
      .execute();
    const ids = users.map((u) => u.id as number);
    const tags = await db
      .insertInto('tags')
      .values(['bench', 'even', 'tag0', 'tag1', 'tag2', 'tag3', 'tag4'].map((name) => ({ name })))
      .returning(['id', 'name'])
      .execute();
    const tagId = new Map(tags.map((t) => [t.name, t.id as number]));
    for (let i = 0; i < 40; i++) {
      const article = await db
        .insertInto('articles')
        .values({ slug: `article-${i}`, title: `Article ${i}`, description: `About ${i}`, body: 'Text.', author_id: ids[i % 6]! })
        .returning('id')
        .executeTakeFirstOrThrow();
      const names = ['bench', `tag${i % 5}`, ...(i % 2 === 0 ? ['even'] : [])];
      await db
        .insertInto('article_tags')
        .values(names.map((name) => ({ article_id: article.id as number, tag_id: tagId.get(name)! })))
        .execute();
    }
    const articles = await db.selectFrom('articles').select('id').execute();
    const favorites = articles.flatMap((a, i) =>
      ids.filter((_, u) => (i + u) % 3 === 0).map((user) => ({ user_id: user, article_id: a.id as number })),
    );
    await db.insertInto('favorites').values(favorites).execute();
    await db
      .insertInto('follows')
      .values([1, 2, 3].map((u) => ({ follower_id: ids[0]!, followed_id: ids[u]! })))
      .execute();
    const { plain } = await (running.services.apiTokens as ApiTokens).create(String(ids[0]), { name: 'bench', abilities: ['conduit'] });
    return { env, authorization: `Token ${plain}` };
  } finally {
    await running.close();
  }
}

/**
 * Run the benchmark.
 * @returns the medians per server, bindery ÷ Fastify per round and its median, and where the database was.
 */
export async function runRealworldBench(
  options: RealworldBenchOptions,
  log: (line: string) => void,
): Promise<{ rows: RealworldRow[]; ratios: number[]; ratio: number; where: string; pinned: boolean }> {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const database = await benchDatabase(`bench_realworld_${process.pid}`, log);
  const samples = new Map<string, { rps: number; p99: number; cpuUs: number }[]>(SERVERS.map((s) => [s.key, []]));
  let pinned = false;
  try {
    const fixture = await makeFixture(database.url);
    const load = {
      method: 'GET' as const,
      path: '/api/articles?limit=20',
      headers: { accept: 'application/json', authorization: fixture.authorization },
    };
    for (let round = 1; round <= options.rounds; round++) {
      const running = new Map<string, BenchServer>();
      try {
        for (const s of SERVERS) running.set(s.key, await startServer(here + s.script, fixture.env));
        const bodies = await Promise.all(
          [...running.values()].map(async (r) => (await fetch(`http://127.0.0.1:${r.port}${load.path}`, { headers: load.headers })).text()),
        );
        if (bodies[0] !== bodies[1] || !bodies[0]!.includes('"articlesCount":40'))
          throw new Error(`the servers answer differently:\n${bodies[0]!.slice(0, 400)}\n${bodies[1]!.slice(0, 400)}`);
        pinned = pinProcesses(
          process.pid,
          [...running.values()].map((r) => r.pid),
        );
        for (const r of running.values()) await runLoad(r.port, { ...load, seconds: 1, connections: options.connections });
        const measure = async (key: string) => {
          const server = running.get(key)!;
          const before = server.cpuMs();
          const r = await runLoad(server.port, { ...load, seconds: options.seconds, connections: options.connections });
          if (r.errors > 0 || (r.statuses['200'] ?? 0) !== r.requests) throw new Error(`${key}: statuses ${JSON.stringify(r.statuses)}`);
          return { rps: r.rps, p99: r.p99, cpuUs: ((server.cpuMs() - before) * 1000) / r.requests };
        };
        const alone = new Map<string, { rps: number; p99: number; cpuUs: number }>();
        for (const s of SERVERS) alone.set(s.key, await measure(s.key));
        const together = new Map(await Promise.all(SERVERS.map(async (s) => [s.key, await measure(s.key)] as const)));
        for (const s of SERVERS) {
          const fig = { rps: alone.get(s.key)!.rps, p99: alone.get(s.key)!.p99, cpuUs: together.get(s.key)!.cpuUs };
          samples.get(s.key)!.push(fig);
          log(
            `  round ${round}: ${s.name.padEnd(32)} ${Math.round(fig.rps).toString().padStart(6)} req/s alone ${fig.cpuUs.toFixed(0).padStart(6)} µs CPU/request side by side`,
          );
        }
      } finally {
        for (const server of running.values()) await server.stop();
      }
    }
  } finally {
    await database.dispose();
  }
  const rows = SERVERS.map((s) => {
    const figs = samples.get(s.key)!;
    return {
      name: s.name,
      rps: median(figs.map((f) => f.rps)),
      p99: median(figs.map((f) => f.p99)),
      cpuUs: median(figs.map((f) => f.cpuUs)),
    };
  });
  // bindery's CPU per request ÷ Fastify's, per round (the pair ran side by side), and their median.
  const ratios = samples.get('bindery')!.map((b, i) => b.cpuUs / samples.get('fastify')![i]!.cpuUs);
  return { rows, ratios, ratio: median(ratios), where: database.where, pinned };
}
