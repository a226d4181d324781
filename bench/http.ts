/**
 * Benchmark: request cost as users run it. The reference app booted as
 * `bindery serve` boots it (production settings, its real route groups,
 * the execution context on, PostgreSQL), side by side in one run with a
 * hand-written Fastify 5 + ajv + pg server (the yardstick) and a raw
 * `node:http` + pg server doing the same work (bench/servers/peer-work.ts).
 *
 * Cases: `POST /notes` valid (201, one INSERT) and invalid (422 problem
 * details); `GET /notes?limit=20`; the token-checked
 * `GET /api/documents/{id}`; and, bindery only, a signed-in page
 * (`GET /dashboard` with the session and remember-me cookies) against a
 * page for a cookie-less guest (`GET /login`).
 *
 * Every round starts each server in a fresh process and warms every case
 * up; then, per case, it measures each server **alone** (its throughput),
 * and all of the case's servers **side by side**: loaded at the same time
 * (each with its own `connections` connections, all on the same CPU), so
 * whatever else runs on the machine slows them alike. The verdict figure is
 * the server's CPU time per request (user + system from /proc/<pid>/stat)
 * side by side; medians over the rounds. The two pages run on bindery alone,
 * one after the other, the difference of their CPU per request being the figure.
 */
import { fileURLToPath } from 'node:url';
import { benchDatabase } from './support/database.js';
import { currentCookies, makeHttpFixture, type HttpFixture } from './http/fixture.js';
import { pinProcesses, runLoad, startServer, type BenchServer, type LoadOptions } from './support/load.js';
import type { HttpRuntime } from './http/runtimes.js';
import { DEFAULT_CONTENT_SECURITY_POLICY } from '../runtime/config/content-security-policy.js';

export interface HttpBenchOptions {
  readonly seconds: number;
  readonly rounds: number;
  readonly connections: number;
}

/** The servers, in the order of the table. */
export const HTTP_SERVERS = [
  { key: 'raw', name: 'raw node:http + pg (by hand)', script: 'servers/raw-pg.ts' },
  { key: 'fastify', name: 'Fastify + ajv + pg (by hand)', script: 'servers/fastify-pg.ts' },
  { key: 'bindery', name: 'bindery (reference app, bindery serve)', script: 'servers/bindery-app.ts' },
] as const;
type ServerKey = (typeof HTTP_SERVERS)[number]['key'];

interface Case {
  readonly key: string;
  readonly name: string;
  readonly status: number;
  readonly servers: readonly ServerKey[];
  /** Every server must answer the same body (checked before measuring): the peers do exactly bindery's work. */
  readonly sameBody?: boolean;
  /** CPU per request of bindery ÷ the yardstick's (or, for `overKey`, minus that case's) must stay within this. */
  readonly target?: { readonly ratio: number } | { readonly overKey: string; readonly addedUs: number };
  load(f: HttpFixture): Omit<LoadOptions, 'seconds' | 'connections'>;
}

const VALID = JSON.stringify({ title: 'Benchmark note', body: 'Some text for the body of the note.', tags: ['bench', 'load-test'] });
const INVALID = JSON.stringify({ title: '', body: 'Some text for the body of the note.', tags: ['bench', 'bench'] });
const ALL: readonly ServerKey[] = ['raw', 'fastify', 'bindery'];
/** Two titles in turn: every PATCH changes the row, so each writes its audit entry. */
const PATCH_BODIES = [JSON.stringify({ title: 'Bench title A' }), JSON.stringify({ title: 'Bench title B' })];
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
const BROWSER = { accept: 'text/html,application/xhtml+xml', 'user-agent': 'Mozilla/5.0 (bench)' };

export const HTTP_CASES: readonly Case[] = [
  {
    key: 'create',
    name: 'POST /notes valid → 201 (INSERT)',
    status: 201,
    servers: ALL,
    target: { ratio: 1.1 },
    load: () => ({ method: 'POST', path: '/notes', headers: JSON_HEADERS, body: VALID }),
  },
  {
    key: 'invalid',
    name: 'POST /notes invalid → 422',
    status: 422,
    servers: ALL,
    target: { ratio: 1.1 },
    load: () => ({ method: 'POST', path: '/notes', headers: JSON_HEADERS, body: INVALID }),
  },
  {
    key: 'list',
    name: 'GET /notes?limit=20 (list route: keyset page, sealed cursor)',
    status: 200,
    servers: ALL,
    sameBody: true,
    target: { ratio: 1.1 },
    load: () => ({ method: 'GET', path: '/notes?limit=20', headers: { accept: 'application/json' } }),
  },
  {
    key: 'token',
    name: 'GET /api/documents/{id}, bearer token',
    status: 200,
    servers: ALL,
    target: { ratio: 1.1 },
    load: (f) => ({
      method: 'GET',
      path: `/api/documents/${f.documentId}`,
      headers: { accept: 'application/json', authorization: f.bearer },
    }),
  },
  {
    key: 'patch',
    name: 'PATCH /api/documents/{id}, bearer token (audited update: the row and its entry)',
    status: 200,
    // Bindery alone, or against another checkout of bindery (BENCH_HTTP_BASELINE, the raw column): the peers write no audit entry.
    servers: process.env.BENCH_HTTP_BASELINE === undefined ? ['bindery'] : ['raw', 'bindery'],
    load: (f) => ({
      method: 'PATCH',
      path: `/api/documents/${f.documentId}`,
      headers: { ...JSON_HEADERS, authorization: f.bearer },
      body: PATCH_BODIES[0],
      bodies: PATCH_BODIES,
    }),
  },
  {
    key: 'guest',
    name: 'page, cookie-less guest (GET /login)',
    status: 200,
    servers: ['bindery'],
    load: () => ({ method: 'GET', path: '/login', headers: BROWSER }),
  },
  {
    key: 'member',
    name: 'page, signed in (GET /dashboard, session + remember cookies)',
    status: 200,
    servers: ['bindery'],
    target: { overKey: 'guest', addedUs: 150 },
    load: (f) => ({ method: 'GET', path: '/dashboard', headers: { ...BROWSER, cookie: f.cookie } }),
  },
];

/** One case on one server: `rps` and `p99` alone; `cpuUs` side by side (pages: alone). */
export interface HttpFigures {
  readonly rps: number;
  readonly cpuUs: number;
  /** The kernel's part of `cpuUs` (system time: socket writes, wake-ups). */
  readonly systemUs: number;
  readonly p99: number;
}

/** Medians of one case on one server, and bindery's CPU per request ÷ this server's, per round (side by side). */
export interface HttpRow extends HttpFigures {
  readonly binderyOver: readonly number[];
}

/** Medians per case and server. */
export type HttpResults = Map<string, Map<ServerKey, HttpRow>>;

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A request of the case, checked before measuring so nothing is measured by mistake; its body. */
/** The headers every server must send alike (bindery's standard headers; the request ID's presence). */
const SAME_HEADERS = [
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'cross-origin-opener-policy',
  'strict-transport-security',
  'content-security-policy',
] as const;

function headerSet(res: Response): string {
  const set = SAME_HEADERS.map((name) => `${name}: ${res.headers.get(name) ?? '(none)'}`);
  return [...set, `x-request-id: ${res.headers.has('x-request-id') ? 'present' : '(none)'}`].join('\n');
}

async function check(port: number, c: Case, f: HttpFixture, server: string): Promise<{ body: string; headers: string }> {
  const l = c.load(f);
  const res = await fetch(`http://127.0.0.1:${port}${l.path}`, {
    method: l.method,
    headers: l.headers,
    ...(l.body === undefined ? {} : { body: l.body }),
    redirect: 'manual',
  });
  const text = await res.text();
  if (res.status !== c.status)
    throw new Error(`${server}, ${c.name}: answered ${res.status} instead of ${c.status}: ${text.slice(0, 300)}`);
  return { body: text, headers: headerSet(res) };
}

/**
 * A body as compared with bindery's: whole, but in an A/B run against another
 * checkout (`BENCH_HTTP_BASELINE`, in the raw column) without its `next`
 * cursor, whose sealed text may differ between versions.
 */
function comparable(server: ServerKey, body: string): string {
  if (process.env.BENCH_HTTP_BASELINE === undefined || server !== 'raw') return body;
  return body.replace(/"next":"[^"]*"/, '"next":"…"');
}

/** Check every server of every case: the same standard headers as bindery's; a `sameBody` case's bodies equal to bindery's. */
async function checkAll(cases: readonly Case[], running: ReadonlyMap<ServerKey, BenchServer>, f: HttpFixture): Promise<void> {
  for (const c of cases) {
    const answers = new Map<ServerKey, { body: string; headers: string }>();
    for (const s of c.servers) answers.set(s, await check(running.get(s)!.port, c, f, s));
    const ours = answers.get('bindery')!;
    for (const [s, { body, headers }] of answers) {
      if (headers !== ours.headers)
        throw new Error(`${s}, ${c.name}: the standard headers differ from bindery's:\n${headers}\nbindery:\n${ours.headers}`);
      if (c.sameBody === true && comparable(s, body) !== comparable(s, ours.body))
        throw new Error(`${s}, ${c.name}: the body differs from bindery's:\n${body.slice(0, 400)}\nbindery:\n${ours.body.slice(0, 400)}`);
    }
  }
}

async function measure(
  server: BenchServer,
  c: Case,
  f: HttpFixture,
  seconds: number,
  connections: number,
  label: string,
): Promise<HttpFigures> {
  const before = server.cpuMs();
  const systemBefore = server.systemMs();
  const r = await runLoad(server.port, { ...c.load(f), seconds, connections });
  const cpuMs = server.cpuMs() - before;
  const systemMs = server.systemMs() - systemBefore;
  const wanted = r.statuses[String(c.status)] ?? 0;
  if (r.errors > 0 || wanted !== r.requests)
    throw new Error(
      `${label}, ${c.name}: ${r.errors} errors and statuses ${JSON.stringify(r.statuses)} under load (expected only ${c.status})`,
    );
  return { rps: r.rps, cpuUs: (cpuMs * 1000) / r.requests, systemUs: (systemMs * 1000) / r.requests, p99: r.p99 };
}

/**
 * Run the benchmark.
 * @returns the medians, where the database was, and whether servers and load were pinned to separate CPUs.
 */
export async function runHttpBench(
  options: HttpBenchOptions,
  log: (line: string) => void,
  only: ReadonlySet<string> = new Set(),
  runtime?: HttpRuntime,
): Promise<{ results: HttpResults; where: string; pinned: boolean }> {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const scriptOf = (s: (typeof HTTP_SERVERS)[number]) => runtime?.scripts[s.key] ?? here + s.script;
  const cases = HTTP_CASES.filter((c) => only.size === 0 || only.has(c.key));
  const database = await benchDatabase(`bench_http_${process.pid}`, log);
  const samples = new Map<string, Map<ServerKey, HttpFigures[]>>(cases.map((c) => [c.key, new Map(c.servers.map((s) => [s, []]))]));
  let pinned = false;
  try {
    let fixture = await makeHttpFixture(database.url);
    const env = { ...fixture.env, BENCH_HTTP: '1', BENCH_CONTENT_SECURITY_POLICY: DEFAULT_CONTENT_SECURITY_POLICY, ...runtime?.env };
    for (let round = 1; round <= options.rounds; round++) {
      const running = new Map<ServerKey, BenchServer>();
      try {
        for (const s of HTTP_SERVERS) {
          // BENCH_HTTP_PROFILE=<dir>: bindery's server (or those of BENCH_HTTP_PROFILE_SERVERS, e.g. `bindery,fastify`)
          // writes a V8 CPU profile there when it stops (node --cpu-prof; the file name carries the process ID).
          const base = runtime ?? { node: process.execPath, execArgv: process.execArgv };
          const profile =
            (process.env.BENCH_HTTP_PROFILE_SERVERS ?? 'bindery').split(',').includes(s.key) && process.env.BENCH_HTTP_PROFILE
              ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_HTTP_PROFILE}`]
              : [];
          running.set(s.key, await startServer(scriptOf(s), env, { node: base.node, execArgv: [...profile, ...base.execArgv] }));
        }
        fixture = await currentCookies(`http://127.0.0.1:${running.get('bindery')!.port}`, fixture);
        await checkAll(cases, running, fixture);
        pinned = pinProcesses(
          process.pid,
          [...running.values()].map((r) => r.pid),
        );
        for (const c of cases)
          for (const s of c.servers)
            await runLoad(running.get(s)!.port, { ...c.load(fixture), seconds: 1, connections: options.connections });
        for (const c of cases) {
          const alone = new Map<ServerKey, HttpFigures>();
          for (const s of c.servers) alone.set(s, await measure(running.get(s)!, c, fixture, options.seconds, options.connections, s));
          const together =
            c.servers.length < 2
              ? alone
              : new Map(
                  await Promise.all(
                    c.servers.map(
                      async (s) => [s, await measure(running.get(s)!, c, fixture, options.seconds, options.connections, s)] as const,
                    ),
                  ),
                );
          for (const s of c.servers) {
            const fig = {
              rps: alone.get(s)!.rps,
              p99: alone.get(s)!.p99,
              cpuUs: together.get(s)!.cpuUs,
              systemUs: together.get(s)!.systemUs,
            };
            samples.get(c.key)!.get(s)!.push(fig);
            log(
              `  round ${round}: ${c.name.padEnd(62)} ${s.padEnd(8)} ${Math.round(fig.rps).toString().padStart(6)} req/s alone ${alone.get(s)!.cpuUs.toFixed(1).padStart(7)} µs CPU/request alone ${fig.cpuUs.toFixed(1).padStart(7)} side by side (${fig.systemUs.toFixed(1)} system)`,
            );
          }
        }
      } finally {
        for (const server of running.values()) await server.stop();
      }
    }
  } finally {
    await database.dispose();
  }
  const results: HttpResults = new Map();
  for (const [key, byServer] of samples) {
    const row = new Map<ServerKey, HttpRow>();
    const ours = byServer.get('bindery')!;
    for (const [s, figs] of byServer) {
      row.set(s, {
        rps: median(figs.map((x) => x.rps)),
        cpuUs: median(figs.map((x) => x.cpuUs)),
        systemUs: median(figs.map((x) => x.systemUs)),
        p99: median(figs.map((x) => x.p99)),
        binderyOver: figs.map((x, i) => ours[i]!.cpuUs / x.cpuUs),
      });
    }
    results.set(key, row);
  }
  return { results, where: database.where, pinned };
}

/** The Markdown tables and verdicts of {@link runHttpBench}'s results. */
export function formatHttpResults(results: HttpResults): string[] {
  const lines = [
    '| case | raw node:http + pg | Fastify + ajv + pg (yardstick) | bindery | bindery ÷ Fastify (CPU/request) | target |',
    '|---|---:|---:|---:|---:|---|',
  ];
  const cell = (f: HttpRow | undefined) => (f === undefined ? '—' : `${f.cpuUs.toFixed(0)} µs · ${Math.round(f.rps)} req/s`);
  for (const c of HTTP_CASES) {
    const row = results.get(c.key);
    if (row === undefined) continue;
    const b = row.get('bindery')!;
    const y = row.get('fastify');
    let ratio = '—';
    let verdict = '—';
    if (c.target !== undefined && 'ratio' in c.target && y !== undefined) {
      // The median of the per-round ratios: each round's pair ran side by side.
      const r = median(y.binderyOver);
      ratio = `${r.toFixed(2)}× (rounds: ${y.binderyOver.map((x) => x.toFixed(2)).join(', ')})`;
      verdict = `≤ ${c.target.ratio.toFixed(2)}× ${r <= c.target.ratio ? 'met' : 'NOT met'}`;
    } else if (c.target !== undefined && 'overKey' in c.target) {
      const base = results.get(c.target.overKey)?.get('bindery');
      if (base !== undefined) {
        const added = b.cpuUs - base.cpuUs;
        ratio = `+${added.toFixed(0)} µs over the guest page`;
        verdict = `≤ +${c.target.addedUs} µs ${added <= c.target.addedUs ? 'met' : 'NOT met'}`;
      }
    }
    lines.push(`| ${c.name} | ${cell(row.get('raw'))} | ${cell(y)} | ${cell(b)} | ${ratio} | ${verdict} |`);
  }
  return lines;
}
