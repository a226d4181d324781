/**
 * `npm run bench -- cli`: how long the `bindery` command takes to answer in
 * a project made by `bindery new` from this checkout's package (`npm pack`,
 * then `npm install` in the project), development mode (no NODE_ENV) — the
 * way a developer runs it all day. Each command runs as a fresh process,
 * the commands in turn (A B C … A B C …) so a busy minute slows them alike;
 * wall and CPU time (user + system of the process and its children, from
 * the shell's `times`) per run, medians and ranges reported.
 *
 * Environment: BENCH_CLI_RUNS (default 10), BENCH_CLI_PROJECT (an existing
 * project to time instead of making one), BENCH_NODES (comma-separated
 * paths of further node binaries, e.g. `.node/24/bin/node`), DATABASE_URL
 * (else an embedded PostgreSQL, started once for the whole run: the app
 * commands are timed against a running server either way).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { benchDatabase } from './support/database.js';

const REPO = join(import.meta.dirname, '..');

/** One command's timings over the runs, seconds. */
export interface CliRow {
  readonly node: string;
  readonly command: string;
  readonly wall: readonly number[];
  readonly cpu: readonly number[];
  /** The target, seconds of wall time (on an idle machine). */
  readonly target: number;
  readonly exitCodes: readonly number[];
}

/** The command lines timed, and their targets (docs/benchmarks.md "The command line"). */
export const CLI_COMMANDS: readonly { readonly argv: readonly string[]; readonly target: number }[] = [
  { argv: ['--help'], target: 0.3 },
  { argv: ['generate', '--help'], target: 0.3 },
  { argv: ['jobs:failed', '--help'], target: 0.3 },
  { argv: ['--version'], target: 0.3 },
  { argv: ['migrate', '--status'], target: 1.5 },
  { argv: ['jobs:failed'], target: 1.5 },
  { argv: ['mail:outbox'], target: 1.5 },
];

const npmEnv = {
  ...process.env,
  npm_config_prefer_offline: 'true',
  npm_config_update_notifier: 'false',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
};

/** Make a project as a new user does: the packed checkout, `bindery new`, `npm install`, a key. */
function makeProject(log: (line: string) => void): string {
  const work = mkdtempSync(join(tmpdir(), 'bindery-bench-cli-'));
  chmodSync(work, 0o755);
  log(`Packing the checkout and making a project in ${work} (npm pack, bindery new, npm install) …`);
  execFileSync('npm', ['pack', '--pack-destination', work], { cwd: REPO, env: npmEnv, stdio: 'ignore' });
  const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!);
  execFileSync(process.execPath, [join(REPO, 'bin/bindery.mjs'), 'new', 'project', '--bindery', tarball], {
    cwd: work,
    env: npmEnv,
    stdio: 'ignore',
  });
  const project = join(work, 'project');
  execFileSync('npm', ['install'], { cwd: project, env: npmEnv, stdio: 'ignore' });
  execFileSync(process.execPath, ['node_modules/.bin/bindery', 'key:generate'], { cwd: project, env: npmEnv, stdio: 'ignore' });
  return project;
}

/** Run one command line as a fresh process; its wall time and the CPU time of it and its children. */
function timeOnce(
  node: string,
  argv: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ wall: number; cpu: number; code: number }> {
  return new Promise((resolve, reject) => {
    // `times` prints the shell's own and then its children's user and system times.
    const script = '"$@" >/dev/null 2>&1; code=$?; times; exit $code';
    const started = process.hrtime.bigint();
    const child = spawn('sh', ['-c', script, 'sh', node, 'node_modules/.bin/bindery', ...argv], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e9;
      const line = out.trim().split('\n').at(-1) ?? '';
      const seconds = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
      resolve({ wall, cpu: seconds.reduce((a, b) => a + b, 0), code: code ?? -1 });
    });
  });
}

/**
 * Time the CLI.
 * @param options.runs runs of each command line.
 * @param options.nodes node binaries to run it with (the first is this process's).
 * @param log progress lines.
 */
export async function runCliBench(
  options: { readonly runs: number; readonly nodes: readonly string[] },
  log: (line: string) => void,
): Promise<{ rows: CliRow[]; project: string; where: string }> {
  const made = process.env.BENCH_CLI_PROJECT === undefined;
  const project = process.env.BENCH_CLI_PROJECT ?? makeProject(log);
  const database = await benchDatabase('bindery_bench_cli', log);
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url, NODE_ENV: undefined, APP_ENV: undefined, LOG_LEVEL: 'warn' };
  try {
    execFileSync(process.execPath, ['node_modules/.bin/bindery', 'migrate'], { cwd: project, env, stdio: 'ignore' });
    // Once before timing: the app's commands are then in the help cache, as after any first app command.
    execFileSync(process.execPath, ['node_modules/.bin/bindery', 'jobs:failed'], { cwd: project, env, stdio: 'ignore' });
    const rows: CliRow[] = [];
    for (const node of options.nodes) {
      const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
      const timings = CLI_COMMANDS.map(() => ({ wall: [] as number[], cpu: [] as number[], codes: [] as number[] }));
      // Warm-up (compile caches), each command checked: a failing one stops the bench with its output.
      for (const c of CLI_COMMANDS) {
        const run = spawnSync(node, ['node_modules/.bin/bindery', ...c.argv], { cwd: project, env, encoding: 'utf8' });
        if (run.status !== 0)
          throw new Error(`bench cli: \`bindery ${c.argv.join(' ')}\` exited ${run.status}:\n${run.stdout}${run.stderr}`.slice(0, 3000));
      }
      for (let run = 0; run < options.runs; run++) {
        for (const [i, c] of CLI_COMMANDS.entries()) {
          const t = await timeOnce(node, c.argv, project, env);
          timings[i]!.wall.push(t.wall);
          timings[i]!.cpu.push(t.cpu);
          timings[i]!.codes.push(t.code);
        }
      }
      for (const [i, c] of CLI_COMMANDS.entries())
        rows.push({
          node: version,
          command: c.argv.join(' '),
          wall: timings[i]!.wall,
          cpu: timings[i]!.cpu,
          target: c.target,
          exitCodes: timings[i]!.codes,
        });
      log(`  ${version}: ${options.runs} runs of each command done`);
    }
    return { rows, project, where: database.where };
  } finally {
    await database.dispose();
    // The project this run made (and the tarball next to it) goes; one given by BENCH_CLI_PROJECT stays.
    if (made) rmSync(dirname(project), { recursive: true, force: true });
  }
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** The Markdown table of {@link runCliBench}'s rows. */
export function formatCliResults(rows: readonly CliRow[]): string[] {
  const out = [
    '| Node | command | wall s median (min–max) | CPU s median | exit | target (wall, idle machine; judged on the fastest run) |',
    '|---|---|---:|---:|---|---|',
  ];
  for (const r of rows) {
    const wall = median(r.wall);
    const codes = [...new Set(r.exitCodes)].join(',');
    out.push(
      `| ${r.node} | \`bindery ${r.command}\` | ${wall.toFixed(2)} (${Math.min(...r.wall).toFixed(2)}–${Math.max(...r.wall).toFixed(2)}) | ${median(r.cpu).toFixed(2)} | ${codes} | < ${r.target} s: ${Math.min(...r.wall) < r.target ? 'met' : 'not met'} |`,
    );
  }
  return out;
}

/** The node binaries of BENCH_NODES that exist, after this process's own. */
export function benchNodes(): string[] {
  const extra = (process.env.BENCH_NODES ?? '').split(',').filter((p) => p !== '' && existsSync(p));
  return [process.execPath, ...extra];
}
