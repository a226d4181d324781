/**
 * The generator at scale (`npm run bench -- generator`): `bindery generate`
 * on synthetic schemas of 50, 200 and 1,000 routes (one resource per five
 * routes; test/support/synthetic-schema.ts), each run a fresh process:
 *
 * - cold: no `generated/`, no run record;
 * - unchanged: `generate` again (the run record answers);
 * - one rule edited: one route's rule parameter changed in its schema file,
 *   then `generate` (the record misses; the other routes' validators are
 *   taken from `validators.ts` by their fingerprints);
 * - check: `generate --check` on the unchanged tree (the record answers);
 * - check, no record: `generate --check` with the record deleted (what CI
 *   does on a fresh clone: the whole pipeline, nothing written);
 *
 * wall time, CPU time (user + system) and peak RSS, medians of `rounds`
 * processes, and the highest peak RSS of them; then `tsc --noEmit` over the
 * largest generated tree (a row of its own: wall and CPU time, the median of `rounds` runs).
 *
 * The CLI runs bindery from its TypeScript sources through tsx, as in the
 * repository; with `dist: true` (BENCH_GENERATOR_DIST=1, after `npm run
 * build`) it runs the compiled dist/ instead (BINDERY_DIST=1), as a
 * project made by `bindery new` does; BENCH_GENERATOR_NODE names the node binary.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strictTsconfig } from '../test/support/strict-tsconfig.js';
import { writeSyntheticSchema } from '../test/support/synthetic-schema.js';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const BINDERY = join(REPO, 'bin/bindery.mjs');
const MEASURE = join(REPO, 'bench/support/measure-child.mjs');
/** The node that runs `bindery generate`: BENCH_GENERATOR_NODE (e.g. `.node/24/bin/node`, relative to the working directory), else this process's. */
const GENERATOR_NODE = process.env.BENCH_GENERATOR_NODE ? resolve(process.env.BENCH_GENERATOR_NODE) : process.execPath;

/** One measured process. */
export interface Sample {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly maxRssKb: number;
  readonly exitCode: number | null;
}

/** The medians of one case. */
export interface GeneratorRow {
  readonly routes: number;
  readonly resources: number;
  readonly run: string;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly maxRssMb: number;
  /** The highest peak RSS of the case's processes, MB (NaN when not measured). */
  readonly highestRssMb: number;
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Run `node <script> <args>` in `cwd` as a fresh process (`env` added to this one's); wall time from here, CPU and peak RSS from the process itself. */
export async function measure(
  cwd: string,
  script: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
  node: string = GENERATOR_NODE,
): Promise<Sample> {
  const started = performance.now();
  const child = spawn(node, [MEASURE, script, ...args], {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let usage = '';
  let stderr = '';
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => {
    usage += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exitCode = await new Promise<number | null>((done) => child.on('close', done));
  const wallMs = performance.now() - started;
  const parsed = JSON.parse(usage.trim().split('\n').pop() || '{}') as { cpuMs?: number; maxRssKb?: number };
  if (parsed.cpuMs === undefined) throw new Error(`bench: ${script} ${args.join(' ')} gave no figures (exit ${exitCode}): ${stderr}`);
  return { wallMs, cpuMs: parsed.cpuMs, maxRssKb: parsed.maxRssKb!, exitCode };
}

/** A project folder with a synthetic schema and an empty `node_modules` (where the run record goes). */
export async function syntheticProject(routes: number): Promise<{ root: string; resources: number }> {
  const resources = Math.max(1, Math.round(routes / 5));
  const root = await mkdtemp(join(tmpdir(), `bindery-bench-gen-${routes}-`));
  await writeFile(join(root, 'package.json'), '{ "type": "module", "private": true }\n');
  await mkdir(join(root, 'node_modules'));
  await writeSyntheticSchema(join(root, 'schema'), { resources, routes });
  return { root, resources };
}

/**
 * Run the cases for each size and return the rows; `log` gets progress lines.
 * @throws {Error} when a run fails (exit code other than 0).
 */
export async function runGeneratorBench(
  options: { sizes: readonly number[]; rounds: number; dist?: boolean },
  log: (line: string) => void,
): Promise<{ rows: GeneratorRow[] }> {
  const rows: GeneratorRow[] = [];
  const largest = Math.max(...options.sizes);
  const env: Record<string, string> = options.dist === true ? { BINDERY_DIST: '1' } : {};
  for (const routes of options.sizes) {
    const { root, resources } = await syntheticProject(routes);
    const samples = new Map<string, Sample[]>();
    const record = join(root, 'node_modules/.cache');
    const take = async (run: string, args: string[], before?: () => Promise<void>): Promise<void> => {
      await before?.();
      const sample = await measure(root, BINDERY, args, env);
      if (sample.exitCode !== 0) throw new Error(`bench: bindery ${args.join(' ')} exited with ${sample.exitCode} (${routes} routes)`);
      samples.set(run, [...(samples.get(run) ?? []), sample]);
    };
    for (let round = 0; round < options.rounds; round++) {
      log(`  ${routes} routes, round ${round + 1} of ${options.rounds}`);
      await take('cold generate', ['generate'], async () => {
        await rm(join(root, 'generated'), { recursive: true, force: true });
        await rm(record, { recursive: true, force: true });
      });
      await take('unchanged generate', ['generate']);
      await take('one rule edited, generate', ['generate'], () => editOneRule(root));
      await take('check', ['generate', '--check']);
      await take('check, no record (CI)', ['generate', '--check'], () => rm(record, { recursive: true, force: true }));
    }
    for (const [run, list] of samples) {
      rows.push({
        routes,
        resources,
        run,
        wallMs: median(list.map((s) => s.wallMs)),
        cpuMs: median(list.map((s) => s.cpuMs)),
        maxRssMb: median(list.map((s) => s.maxRssKb)) / 1024,
        highestRssMb: Math.max(...list.map((s) => s.maxRssKb)) / 1024,
      });
    }
    if (routes === largest) {
      const tsc = await timeTsc(root, options.rounds);
      rows.push({
        routes,
        resources,
        run: 'tsc --noEmit of generated/',
        wallMs: median(tsc.map((s) => s.wallMs)),
        cpuMs: median(tsc.map((s) => s.cpuMs)),
        maxRssMb: NaN,
        highestRssMb: NaN,
      });
    }
    await rm(root, { recursive: true, force: true });
  }
  return { rows };
}

/** Change one route's rule parameter in the first resource file (`between:1,200` ⇄ `between:1,150`), as a developer edits a schema. */
async function editOneRule(root: string): Promise<void> {
  const file = join(root, 'schema', (await readdir(join(root, 'schema'))).sort().find((name) => name !== '00-groups.yaml')!);
  const text = await readFile(file, 'utf8');
  const edited = text.includes('"between:1,200"')
    ? text.replace('"between:1,200"', '"between:1,150"')
    : text.replace('"between:1,150"', '"between:1,200"');
  if (edited === text) throw new Error(`bench: no rule to edit in ${file}`);
  await writeFile(file, edited);
}

/**
 * `tsc --noEmit` over the generated tree (strict settings, the runtime linked
 * in), `rounds` times. Its peak memory is not measured (TypeScript 7's tsc is
 * a native program started by a Node script).
 * @throws {Error} with tsc's output when the tree does not type-check.
 */
async function timeTsc(root: string, rounds: number): Promise<Sample[]> {
  await writeFile(join(root, 'tsconfig.json'), strictTsconfig({ include: ['generated'] }));
  await symlink(join(REPO, 'runtime'), join(root, 'runtime'));
  await rm(join(root, 'node_modules'), { recursive: true, force: true });
  await symlink(join(REPO, 'node_modules'), join(root, 'node_modules'));
  const samples: Sample[] = [];
  for (let round = 0; round < rounds; round++) {
    const sample = await measure(root, join(REPO, 'node_modules/typescript/bin/tsc'), ['--noEmit', '-p', root], {}, process.execPath);
    if (sample.exitCode !== 0) {
      const tsc = spawn(join(REPO, 'node_modules/.bin/tsc'), ['--noEmit', '-p', root], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      tsc.stdout.on('data', (c: Buffer) => {
        out += c.toString();
      });
      await new Promise((done) => tsc.on('close', done));
      throw new Error(`bench: tsc failed on the generated tree:\n${out.slice(0, 2000)}`);
    }
    samples.push(sample);
  }
  return samples;
}
