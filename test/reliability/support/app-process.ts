/**
 * The reference app as users run it: `bindery migrate`, then
 * `bindery serve --worker` in a child process on a fresh database, so a
 * crash shows as the process exiting (and cannot take the test runner down).
 *
 * @example
 *   const app = await startAppProcess();
 *   afterAll(() => app.stop());
 *   await fetch(`${app.url}/notes`);
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generateAppKey } from '../../../runtime/config/app-key.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { referenceAppEnv } from '../../support/reference-app-env.js';
import { BIN, runCli } from '../../runtime/cli/run-cli.js';
import { waitFor } from './wait-for.js';

/** The repository root (the reference app's project). */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface AppProcess {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The app's database. */
  readonly database: TestDatabase;
  /** The child process. */
  readonly child: ChildProcess;
  /** Everything the process wrote to stdout so far. */
  stdout(): string;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Resolves when the process exits. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Whether the process is still running. */
  alive(): boolean;
  /** Kill the process (SIGKILL when still running) and drop its database. */
  stop(): Promise<void>;
}

/**
 * Migrate a fresh database and serve the reference app on a free port.
 * @param env settings added to the defaults (LOG_LEVEL=warn, a fresh APP_KEY, the webhook credentials).
 */
export async function startAppProcess(env: Record<string, string> = {}, options: { worker?: boolean } = {}): Promise<AppProcess> {
  const database = await createTestDatabase('rel');
  const fullEnv: Record<string, string> = {
    ...referenceAppEnv,
    DATABASE_URL: database.url,
    APP_KEY: generateAppKey(),
    HTTP_ADDR: '127.0.0.1:0',
    LOG_LEVEL: 'warn',
    NO_COLOR: '1',
    ...env,
  };
  const migrate = await runCli(['migrate'], { cwd: ROOT, env: fullEnv });
  if (migrate.code !== 0) throw new Error(`bindery migrate failed (${migrate.code}): ${migrate.stdout}${migrate.stderr}`);
  const args = [BIN, 'serve', ...((options.worker ?? true) ? ['--worker'] : [])];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...fullEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  let url: string;
  try {
    url = await waitFor(
      `the app to serve (stdout: ${stdout}, stderr: ${stderr})`,
      () => {
        if (!alive()) throw new Error(`the app exited at boot: ${stdout}${stderr}`);
        return /Serving \S+ at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      },
      60_000,
    );
  } catch (error) {
    if (alive()) child.kill('SIGKILL');
    await database.drop();
    throw error;
  }
  return {
    url,
    database,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    alive,
    async stop() {
      if (alive()) {
        child.kill('SIGKILL');
        await exited;
      }
      await database.drop();
    },
  };
}
