/**
 * The background type check of `bindery dev` (docs/cli.md "dev — the
 * development loop"): after every restart, the project's own `tsc
 * --noEmit` runs incrementally (its build info under
 * `node_modules/.cache/bindery/`) at a lower CPU priority, and its errors
 * are printed as `app/handlers/notes.ts:12:5: error TS2345: …`. It never
 * holds up serving: the app runs whatever the type check finds, as under
 * tsx it would anyway. A new request while one runs stops it and starts
 * over.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { devToolMissing } from '../../support/dev-tools.js';

/** Options of {@link startTypeChecker}. */
export interface TypeCheckerOptions {
  /** Project root: its `tsconfig.json` and its `typescript`. */
  readonly root: string;
  /** Progress (the all-clear). */
  readonly out: (text: string) => void;
  /** The errors. */
  readonly err: (text: string) => void;
}

/** A running background type check. */
export interface TypeChecker {
  /** Check now (again): a check in progress is stopped and started over. */
  request(): void;
  /** Resolves once no check is running or pending (tests, shutdown). */
  idle(): Promise<void>;
  /** Stop a running check; later requests do nothing. */
  close(): void;
}

/** tsc's `--pretty false` line: `file(line,col): error TS1234: message`. */
const DIAGNOSTIC = /^(.+)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/;

/**
 * tsc's plain output as bindery prints diagnostics: `file:line:column: error TSnnnn: message`,
 * continuation lines (indented) kept under their diagnostic.
 * @returns the lines and the number of errors.
 */
export function formatTscOutput(output: string): { text: string; errors: number } {
  let errors = 0;
  const lines: string[] = [];
  for (const line of output.split(/\r?\n/)) {
    const m = DIAGNOSTIC.exec(line);
    if (m) {
      if (m[4] === 'error') errors++;
      lines.push(`${m[1]}:${m[2]}:${m[3]}: ${m[4]} ${m[5]}: ${m[6]}`);
    } else if (/^\s+\S/.test(line) && lines.length > 0) lines.push(line);
    else if (line.trim() !== '' && !/^Found \d+ errors?/.test(line)) {
      // An error without a position (a bad tsconfig.json): shown as is.
      if (/error TS\d+/.test(line)) errors++;
      lines.push(line);
    }
  }
  return { text: lines.length > 0 ? `${lines.join('\n')}\n` : '', errors };
}

/** The project's tsc script, or undefined when TypeScript is not installed for it. */
function projectTsc(root: string): string | undefined {
  try {
    return join(dirname(createRequire(join(root, 'package.json')).resolve('typescript/package.json')), 'bin', 'tsc');
  } catch {
    return undefined;
  }
}

/**
 * Start the background type check of the project at `root`.
 * @returns the checker, or undefined when the project has no `tsconfig.json` (nothing to check).
 *   Without `typescript` it says so once (`BINDERY_TOOL_MISSING`'s advice) and does nothing.
 */
export function startTypeChecker(options: TypeCheckerOptions): TypeChecker | undefined {
  const { root, out, err } = options;
  if (!existsSync(join(root, 'tsconfig.json'))) return undefined;
  const tsc = projectTsc(root);
  if (tsc === undefined) {
    out(`No type check: ${devToolMissing('typescript', { task: 'The type check of bindery dev' }).message}\n`);
    return undefined;
  }
  const buildInfo = join(root, 'node_modules', '.cache', 'bindery', 'dev-typecheck.tsbuildinfo');
  let running: ChildProcess | undefined;
  let pending = false;
  let closed = false;
  /** Errors the last finished check printed (0: clean; undefined: none finished yet). */
  let lastErrors: number | undefined;
  let waiters: Array<() => void> = [];
  const settle = () => {
    if (running !== undefined || pending) return;
    const done = waiters;
    waiters = [];
    for (const w of done) w();
  };

  const run = () => {
    pending = false;
    const started = Date.now();
    const child = spawn(
      process.execPath,
      [tsc, '--noEmit', '-p', root, '--pretty', 'false', '--incremental', '--tsBuildInfoFile', buildInfo],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    running = child;
    try {
      // Below the app processes: a restart is never slowed down by the check.
      if (child.pid !== undefined) setPriority(child.pid, 10);
    } catch {
      // not permitted here: run at normal priority
    }
    let output = '';
    child.stdout!.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr!.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.on('error', () => {});
    child.on('close', (code, signal) => {
      if (running === child) running = undefined;
      if (signal === null && !closed) {
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        const { text, errors } = formatTscOutput(output);
        if (code !== 0 || errors > 0) {
          const n = Math.max(errors, 1);
          err(`${text}Type check: ${n} error${n === 1 ? '' : 's'} (${seconds} s); the app still runs, but fix them before "npm test".\n`);
          lastErrors = n;
        } else {
          if (lastErrors !== undefined && lastErrors > 0) out(`Type check: no errors (${seconds} s).\n`);
          lastErrors = 0;
        }
      }
      if (pending && !closed) run();
      else settle();
    });
  };

  return {
    request() {
      if (closed) return;
      if (running !== undefined) {
        pending = true;
        running.kill('SIGTERM');
        return;
      }
      run();
    },
    idle() {
      return running === undefined && !pending ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
    },
    close() {
      closed = true;
      pending = false;
      running?.kill('SIGTERM');
      settle();
    },
  };
}
