/**
 * How the servers of `npm run bench -- http` run (docs/benchmarks.md):
 *
 * - `built` (the production path, the default): the reference app's
 *   production build (`npm run build`: dist/ and `build/`, checked fresh
 *   before the run) under plain `node` with `NODE_ENV=production`, and the
 *   hand-written peers compiled to JavaScript (TypeScript's
 *   `transpileModule`, types removed only) under the same plain `node`;
 *   once per node binary (this process's, then each of `BENCH_NODES`).
 * - `tsx` (the old rows): every server from its TypeScript sources under
 *   this process's `node --import tsx`.
 *
 * `BENCH_HTTP_RUNTIMES=built,tsx` chooses (default `built`).
 *
 * `BENCH_HTTP_BASELINE=<another checkout, built>` (production path only)
 * puts that checkout's build in the raw peer's place, for an A/B of two
 * versions of bindery side by side: the `raw` column is then the baseline.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ts } from 'ts-morph';

const BENCH = fileURLToPath(new URL('..', import.meta.url));
const REPO = join(BENCH, '..');
/** The peers' files, compiled together (they import each other). */
const PEER_FILES = ['raw-pg', 'fastify-pg', 'peer-work', 'listen', 'note-rules'];

/** One way of running the servers. */
export interface HttpRuntime {
  /** For the report, e.g. `production build, plain node v24.21.0`. */
  readonly label: string;
  readonly node: string;
  readonly execArgv: readonly string[];
  /** The script of each server, by its key (`raw`, `fastify`, `bindery`). */
  readonly scripts: Readonly<Record<'raw' | 'fastify' | 'bindery', string>>;
  /** Added to the servers' environment. */
  readonly env: Readonly<Record<string, string>>;
}

/** Compile the peers to JavaScript under node_modules/.cache (where `pg` and `fastify` still resolve); their folder. */
export function compilePeers(): string {
  const out = join(REPO, 'node_modules', '.cache', 'bindery-bench', 'servers');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
  for (const name of PEER_FILES) {
    const source = readFileSync(join(BENCH, 'servers', `${name}.ts`), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023, verbatimModuleSyntax: false },
      fileName: `${name}.ts`,
    });
    writeFileSync(join(out, `${name}.js`), outputText);
  }
  return out;
}

/** Refuse a missing or stale production build (dist/ and the app's build/): `npm run build` first. */
export async function checkProductionBuild(): Promise<void> {
  const { checkBuild } = await import('../../runtime/app/build-project.js');
  for (const dir of ['dist', 'build']) {
    const problem = await checkBuild(REPO, dir);
    if (problem !== undefined) throw new Error(`bench http: the production build is not usable (${problem}); run \`npm run build\` first.`);
  }
}

/** The runtimes chosen by BENCH_HTTP_RUNTIMES, for each node binary given. */
export async function httpRuntimes(nodes: readonly string[]): Promise<HttpRuntime[]> {
  const wanted = (process.env.BENCH_HTTP_RUNTIMES ?? 'built').split(',').map((s) => s.trim());
  const out: HttpRuntime[] = [];
  if (wanted.includes('built')) {
    await checkProductionBuild();
    const peers = compilePeers();
    for (const node of nodes) {
      const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
      out.push({
        label: `production build, plain node ${version}`,
        node,
        execArgv: [],
        scripts: {
          raw: process.env.BENCH_HTTP_BASELINE
            ? join(process.env.BENCH_HTTP_BASELINE, 'bench', 'servers', 'bindery-built.mjs')
            : join(peers, 'raw-pg.js'),
          fastify: join(peers, 'fastify-pg.js'),
          bindery: join(BENCH, 'servers', 'bindery-built.mjs'),
        },
        env: { NODE_ENV: 'production' },
      });
    }
  }
  if (wanted.includes('tsx'))
    out.push({
      label: `TypeScript sources through tsx, node ${process.version} (old rows)`,
      node: process.execPath,
      execArgv: process.execArgv,
      scripts: {
        raw: join(BENCH, 'servers', 'raw-pg.ts'),
        fastify: join(BENCH, 'servers', 'fastify-pg.ts'),
        bindery: join(BENCH, 'servers', 'bindery-app.ts'),
      },
      env: {},
    });
  return out;
}
