/**
 * Benchmark: the generated `POST /notes` binding + validation path against a
 * hand-written Fastify route with a JSON schema doing the same work, and a
 * raw `node:http` server parsing and checking by hand (the practical limit).
 * Issue 2, "Performance"; target ≥ 0.95× the hand-written Fastify route.
 *
 * Each server runs in its own process under the same runtime and loader as
 * this one; rounds alternate between servers and the median is reported.
 */
import { fileURLToPath } from 'node:url';
import { runLoad, startServer, type LoadFigures } from './support/load.js';

const SERVERS = [
  { name: 'raw node:http (by hand)', script: 'servers/raw-http.ts' },
  { name: 'Fastify + JSON schema (hand-written)', script: 'servers/fastify-hand.ts' },
  { name: 'bindery generated route', script: 'servers/bindery.ts' },
] as const;

const BODY = JSON.stringify({ title: 'Benchmark note', body: 'Some text for the body of the note.', tags: ['bench', 'load-test'] });

export interface NotesBenchOptions {
  readonly seconds: number;
  readonly rounds: number;
  readonly connections: number;
}

export interface NotesBenchRow extends LoadFigures {
  readonly name: string;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

/** Check that a server answers the bench request with 201 and a note, so nothing is measured by mistake. */
async function checkServer(port: number, name: string): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status !== 201 || json.title !== 'Benchmark note' || !Array.isArray(json.tags)) {
    throw new Error(`${name} answered ${res.status} ${JSON.stringify(json)} instead of 201 with the note`);
  }
}

/** Run the notes benchmark; returns one row per server (median of the rounds). */
export async function runNotesBench(options: NotesBenchOptions, log: (line: string) => void): Promise<NotesBenchRow[]> {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const figures = new Map<string, LoadFigures[]>();
  const servers = [];
  for (const s of SERVERS) {
    const server = await startServer(here + s.script);
    await checkServer(server.port, s.name);
    servers.push({ ...s, server });
    figures.set(s.name, []);
  }
  try {
    for (const s of servers) await runLoad(s.server.port, { seconds: 2, connections: options.connections, method: 'POST', path: '/notes', headers: { 'content-type': 'application/json' }, body: BODY });
    for (let round = 1; round <= options.rounds; round++) {
      for (const s of servers) {
        const f = await runLoad(s.server.port, { seconds: options.seconds, connections: options.connections, method: 'POST', path: '/notes', headers: { 'content-type': 'application/json' }, body: BODY });
        if (f.non2xx > 0 || f.errors > 0) throw new Error(`${s.name}: ${f.non2xx} non-2xx responses and ${f.errors} errors under load`);
        figures.get(s.name)!.push(f);
        log(`  round ${round}: ${s.name.padEnd(40)} ${Math.round(f.rps).toString().padStart(7)} req/s`);
      }
    }
  } finally {
    for (const s of servers) await s.server.stop();
  }
  return SERVERS.map((s) => {
    const fs = figures.get(s.name)!;
    return { name: s.name, rps: median(fs.map((f) => f.rps)), p50: median(fs.map((f) => f.p50)), p99: median(fs.map((f) => f.p99)), non2xx: 0, errors: 0 };
  });
}
