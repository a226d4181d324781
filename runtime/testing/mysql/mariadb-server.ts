/**
 * A throwaway MariaDB server for a test run (docs/testing.md "The database
 * server"; docs/database.md "MySQL and MariaDB", "Tests"; README "Set up a
 * fresh machine"): a data folder made
 * by `mariadb-install-db` in a temporary folder, `mariadbd` listening on a
 * free port of 127.0.0.1, ended and removed at the end. Debian's `mariadb-server-core` provides both
 * programs (`node scripts/ensure-mariadb.mjs` installs it).
 *
 * The server is tuned for tests, not for keeping data: no binary log, no
 * flush at each commit, no doublewrite, a small buffer pool.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import mysql from 'mysql2';
import { freePort } from '../../support/free-port.js';

/** A running throwaway server. */
export interface MariadbServer {
  /** `mariadb://root@127.0.0.1:<port>`: a server URL without a database; its user may create databases. */
  readonly url: string;
  /** End the server and remove its folder. Idempotent. */
  stop(): Promise<void>;
}

/** How long the server may take to accept connections (ms). */
const START_TIMEOUT_MS = 60_000;
/** How long it may take to end before it is killed (ms). */
const STOP_TIMEOUT_MS = 15_000;

/** Where the programs are looked for besides PATH (Debian puts mariadbd in /usr/sbin). */
const SBIN = ['/usr/sbin', '/usr/local/sbin', '/usr/bin', '/usr/local/bin'];

/** The path of program `name`, or `undefined`. */
export function findProgram(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...SBIN];
  for (const dir of dirs) {
    const path = join(dir, name);
    if (existsSync(path)) return path;
  }
  return undefined;
}

const MISSING_ADVICE =
  'Install MariaDB\'s server programs (Debian: "apt-get install -y --no-install-recommends mariadb-server-core mariadb-client-core"; in the bindery repository "node scripts/ensure-mariadb.mjs" does it), or set MARIADB_URL to a MariaDB or MySQL server whose user may create databases (mysql://root:secret@127.0.0.1:3306).';

/**
 * Create and start a throwaway server.
 * @throws {Error} naming what failed (a missing program, the install, the start) with the server's last log lines.
 */
export async function startMariadb(): Promise<MariadbServer> {
  const mariadbd = findProgram('mariadbd') ?? findProgram('mysqld');
  const installDb = findProgram('mariadb-install-db') ?? findProgram('mysql_install_db');
  if (mariadbd === undefined || installDb === undefined)
    throw new Error(
      `The tests need a MariaDB server, and ${mariadbd === undefined ? 'mariadbd' : 'mariadb-install-db'} is not installed. ${MISSING_ADVICE}`,
    );
  const dir = await mkdtemp(join(tmpdir(), 'bindery-test-mariadb-'));
  const data = join(dir, 'data');
  const socket = join(dir, 'sock');
  const log = join(dir, 'error.log');
  try {
    await runToEnd(installDb, [
      '--no-defaults',
      `--datadir=${data}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      '--skip-name-resolve',
      '--user=root',
    ]);
    const port = await freePort();
    const server = spawn(
      mariadbd,
      [
        '--no-defaults',
        `--datadir=${data}`,
        `--socket=${socket}`,
        `--port=${port}`,
        '--bind-address=127.0.0.1',
        '--user=root',
        `--pid-file=${join(dir, 'mariadbd.pid')}`,
        `--log-error=${log}`,
        `--tmpdir=${dir}`,
        '--skip-name-resolve',
        '--skip-log-bin',
        '--character-set-server=utf8mb4',
        '--collation-server=utf8mb4_bin',
        '--innodb-buffer-pool-size=64M',
        '--innodb-log-file-size=16M',
        '--innodb-flush-log-at-trx-commit=0',
        '--innodb-doublewrite=0',
        '--innodb-use-native-aio=0',
        '--performance-schema=OFF',
        '--max-connections=300',
      ],
      { stdio: 'ignore' },
    );
    await acceptsConnections(server, socket, log);
    // A TCP user of its own: root@localhost matches socket connections only once names are not resolved.
    await onSocket(socket, [
      "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1'",
      "GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION",
    ]);
    let stopping: Promise<void> | undefined;
    return {
      url: `mariadb://root@127.0.0.1:${port}`,
      stop: () => (stopping ??= stopServer(server).finally(() => rm(dir, { recursive: true, force: true }))),
    };
  } catch (error) {
    const tail = await lastLines(log);
    await rm(dir, { recursive: true, force: true });
    throw new Error(`The throwaway MariaDB for the tests did not start: ${(error as Error).message}${tail}`, { cause: error });
  }
}

/** Run a program to its end. @throws when it fails, with its output's last lines. */
function runToEnd(program: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${program} exited ${code ?? signal}:\n${output.split('\n').slice(-15).join('\n')}`));
    });
  });
}

/** Resolves once the server answers on its socket. @throws when it exits first or after {@link START_TIMEOUT_MS}. */
async function acceptsConnections(server: ChildProcess, socket: string, log: string): Promise<void> {
  let exited: string | undefined;
  server.once('exit', (code, signal) => (exited = `mariadbd exited ${code ?? signal} (see ${log})`));
  server.once('error', (error) => (exited = `mariadbd could not run: ${error.message}`));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited !== undefined) throw new Error(exited);
    if (
      existsSync(socket) &&
      (await onSocket(socket, ['SELECT 1']).then(
        () => true,
        () => false,
      ))
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  server.kill('SIGKILL');
  throw new Error(`mariadbd did not accept connections within ${START_TIMEOUT_MS / 1000} s`);
}

/** Run statements as root on the server's socket. */
async function onSocket(socket: string, statements: readonly string[]): Promise<void> {
  const connection = mysql.createConnection({ socketPath: socket, user: 'root' }).promise();
  try {
    for (const statement of statements) await connection.query(statement);
  } finally {
    await connection.end().catch(() => {});
  }
}

/** End the server (SIGTERM: a clean shutdown; SIGKILL after {@link STOP_TIMEOUT_MS}). */
function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.kill('SIGKILL'), STOP_TIMEOUT_MS);
    server.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    server.kill('SIGTERM');
  });
}

async function lastLines(path: string): Promise<string> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text === '' ? '' : `\nLast lines of the server's log:\n${text.trimEnd().split('\n').slice(-15).join('\n')}`;
}
