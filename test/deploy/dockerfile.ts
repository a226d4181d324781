/**
 * Running a Dockerfile's steps on a host without Docker (docs/deploy.md#the-image):
 * each stage is a folder under a temporary directory standing for the
 * stage's `/app`; `COPY` copies from the build context (honouring
 * `.dockerignore`) or from an earlier stage's folder, `RUN` runs its command
 * with `sh -c` in the stage's folder, `ENV` collects the environment of the
 * last stage, `ENTRYPOINT` + `CMD` give its command.
 *
 * One substitution: a stage's full `npm ci` (every dependency, for the
 * build) links the context's own `node_modules` entries instead of
 * installing them again — the same lock file, without minutes of install.
 * The production install (`npm ci --omit=dev`) runs for real.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One instruction: its keyword (upper case) and the rest of the line. */
export interface Instruction {
  readonly op: string;
  readonly args: string;
}

/** A stage: its name (`AS …`) and instructions after `FROM`. */
export interface Stage {
  readonly name: string;
  readonly instructions: readonly Instruction[];
}

/** Split a Dockerfile into stages (continuation lines joined, comments and the parser directive dropped). */
export function parseDockerfile(text: string): Stage[] {
  const lines = text
    .split('\n')
    .filter((l) => !l.trim().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n');
  const stages: { name: string; instructions: Instruction[] }[] = [];
  for (const line of lines.map((l) => l.trim()).filter(Boolean)) {
    const [, op = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (op.toUpperCase() === 'FROM') {
      stages.push({ name: /\bAS\s+(\S+)/i.exec(args)?.[1] ?? String(stages.length), instructions: [] });
    } else if (stages.length > 0) {
      stages.at(-1)!.instructions.push({ op: op.toUpperCase(), args: args.replace(/\s+/g, ' ') });
    }
  }
  return stages;
}

/** The outcome of {@link runDockerfile}. */
export interface EmulatedImage {
  /** The last stage's folder: the image's `/app`. */
  readonly dir: string;
  /** The last stage's `ENV`. */
  readonly env: Readonly<Record<string, string>>;
  /** `ENTRYPOINT` followed by `CMD`. */
  readonly command: readonly string[];
  /** Seconds each stage took. */
  readonly seconds: Readonly<Record<string, number>>;
}

/**
 * Run every stage of `<context>/Dockerfile` into `<work>/<stage>`.
 * @param env added to each `RUN`'s environment (e.g. `npm_config_prefer_offline`).
 * @throws {Error} on an instruction this emulation does not know, or a failing `RUN` (with its output).
 */
export async function runDockerfile(context: string, work: string, env: Record<string, string> = {}): Promise<EmulatedImage> {
  const stages = parseDockerfile(readFileSync(join(context, 'Dockerfile'), 'utf8'));
  const ignored = dockerignore(context);
  const seconds: Record<string, number> = {};
  // Like BuildKit, a stage starts as soon as the stages it copies from are done.
  const done = new Map<string, Promise<EmulatedImage>>();
  for (const stage of stages) {
    const needs = stage.instructions.flatMap(({ op, args }) =>
      op === 'COPY' && args.startsWith('--from=') ? [args.slice('--from='.length).split(' ')[0]!] : [],
    );
    const missing = needs.find((n) => !done.has(n));
    if (missing !== undefined) throw new Error(`COPY --from=${missing}: no earlier stage of that name`);
    done.set(
      stage.name,
      Promise.all(needs.map((n) => done.get(n))).then(() => runStage(stage, context, work, env, ignored, seconds)),
    );
  }
  const results = await Promise.all(done.values());
  const last = results.at(-1);
  if (last === undefined) throw new Error('the Dockerfile has no stage');
  return last;
}

async function runStage(
  stage: Stage,
  context: string,
  work: string,
  env: Record<string, string>,
  ignored: (path: string) => boolean,
  seconds: Record<string, number>,
): Promise<EmulatedImage> {
  const started = Date.now();
  const dir = join(work, stage.name);
  mkdirSync(dir, { recursive: true });
  const stageEnv: Record<string, string> = {};
  let entrypoint: string[] = [];
  let cmd: string[] = [];
  for (const { op, args } of stage.instructions) {
    if (op === 'WORKDIR') {
      if (args !== '/app') throw new Error(`WORKDIR ${args}: this emulation maps /app only`);
    } else if (op === 'COPY') {
      const words = args.split(' ');
      const from = words[0]!.startsWith('--from=') ? words.shift()!.slice('--from='.length) : undefined;
      const dest = words.pop()!;
      for (const src of words) {
        const source = from === undefined ? join(context, src) : join(work, from, relative('/app', src));
        const target = join(dir, dest);
        const into = dest.endsWith('/') || words.length > 1 ? join(target, src.split('/').pop()!) : target;
        mkdirSync(dirname(into), { recursive: true });
        // Between stages, hard links: the same files, without copying node_modules byte by byte.
        if (from !== undefined && statSync(source).isDirectory() && !existsSync(into)) {
          await run('cp', ['-al', source, into]);
          continue;
        }
        cpSync(source, src === '.' ? target : into, {
          recursive: true,
          verbatimSymlinks: true,
          filter: (path) => from !== undefined || !ignored(relative(context, path)),
        });
      }
    } else if (op === 'RUN') {
      if (/^npm ci\b/.test(args) && !args.includes('--omit=dev')) linkNodeModules(context, dir);
      else await sh(args, dir, env);
    } else if (op === 'ENV') {
      for (const [, k, v] of args.matchAll(/(\w+)=(\S+)/g)) stageEnv[k!] = v!;
    } else if (op === 'ENTRYPOINT') {
      entrypoint = JSON.parse(args) as string[];
    } else if (op === 'CMD') {
      cmd = JSON.parse(args) as string[];
    } else if (!['ARG', 'USER', 'EXPOSE', 'HEALTHCHECK', 'STOPSIGNAL'].includes(op)) {
      throw new Error(`${op}: not known to this emulation`);
    }
  }
  seconds[stage.name] = (Date.now() - started) / 1000;
  return { dir, env: stageEnv, command: [...entrypoint, ...cmd], seconds };
}

async function sh(command: string, cwd: string, env: Record<string, string>): Promise<void> {
  // On a host, that would empty the user's own npm cache.
  if (/npm cache clean/.test(command)) throw new Error(`RUN ${command}: refusing to clean the host's npm cache`);
  try {
    await run('sh', ['-c', command], { cwd, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`RUN ${command} failed in ${cwd}:\n${e.stdout ?? ''}${e.stderr ?? e.message}`);
  }
}

/**
 * Give `dir` the context's dependencies: `node_modules/<entry>` links to
 * the context's, except the workspace links (`bindery`, `@bindery/*`),
 * which point into `dir` itself as npm would make them; `.bin` entries are
 * re-created with their relative targets.
 */
function linkNodeModules(context: string, dir: string): void {
  const from = join(context, 'node_modules');
  const to = join(dir, 'node_modules');
  mkdirSync(join(to, '.bin'), { recursive: true });
  for (const name of readdirSync(from)) {
    if (name === '.bin' || name === '.cache' || name === 'bindery' || name === '@bindery') continue;
    symlinkSync(join(from, name), join(to, name));
  }
  for (const name of readdirSync(join(from, '.bin'))) symlinkSync(readlinkSync(join(from, '.bin', name)), join(to, '.bin', name));
  symlinkSync('..', join(to, 'bindery'));
  if (existsSync(join(from, '@bindery'))) {
    mkdirSync(join(to, '@bindery'));
    for (const name of readdirSync(join(from, '@bindery')))
      symlinkSync(readlinkSync(join(from, '@bindery', name)), join(to, '@bindery', name));
  }
}

/** A matcher of `.dockerignore` (patterns with `*`, `!` exceptions; a match on a folder covers what is inside). */
function dockerignore(context: string): (path: string) => boolean {
  const file = join(context, '.dockerignore');
  const rules = (existsSync(file) ? readFileSync(file, 'utf8') : '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => ({
      negate: l.startsWith('!'),
      re: new RegExp(
        `^${l
          .replace(/^!/, '')
          .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '[^/]*')}(/.*)?$`,
      ),
    }));
  return (path) => {
    if (path === '') return false;
    let out = false;
    for (const rule of rules) if (rule.re.test(path)) out = !rule.negate;
    return out;
  };
}

/**
 * A copy of `context` in `dest` as the Dockerfile's build stage has it
 * (`.dockerignore` honoured), with the context's dependencies linked: a
 * place to build or pack without touching the context.
 */
export function copyContext(context: string, dest: string): void {
  const ignored = dockerignore(context);
  mkdirSync(dest, { recursive: true });
  cpSync(context, dest, { recursive: true, verbatimSymlinks: true, filter: (path) => !ignored(relative(context, path)) });
  linkNodeModules(context, dest);
}
