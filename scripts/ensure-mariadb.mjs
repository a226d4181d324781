#!/usr/bin/env node
/**
 * Make sure the programs of the tests' throwaway MariaDB are there
 * (runtime/testing/mysql/mariadb-server.ts; README "Set up a fresh machine"). Run by
 * `npm test` (pretest) and by hand: `node scripts/ensure-mariadb.mjs`.
 *
 * - MARIADB_URL is set (the tests use that server): nothing to do.
 * - `mariadbd` and `mariadb-install-db` are found (PATH, /usr/sbin, …): nothing to do.
 * - Otherwise, as root with apt-get: `apt-get install -y --no-install-recommends
 *   mariadb-server-core mariadb-client-core` (after `apt-get update` when the
 *   packages are unknown), waiting up to LOCK_TIMEOUT seconds for a package
 *   lock another process holds. The two core packages hold the server, its
 *   install script and `my_print_defaults`, and start no system service
 *   (Debian's `mariadb-server` would start and enable one).
 * - Otherwise it fails (exit 1), saying how to install them or to set
 *   MARIADB_URL: the MariaDB tests cannot be skipped, so the run would fail
 *   anyway, later and less clearly.
 *
 * What it says last is checked against the disk: when apt-get failed but the
 * programs are there all the same (installed meanwhile by someone else), it
 * says so and succeeds.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Seconds apt-get waits for the dpkg (and lists) lock before it fails. */
const LOCK_TIMEOUT = 300;
const APT = ['-o', `DPkg::Lock::Timeout=${LOCK_TIMEOUT}`];
const PACKAGES = ['mariadb-server-core', 'mariadb-client-core'];
/** Where the programs are looked for besides PATH (as runtime/testing/mysql/mariadb-server.ts does). */
const SBIN = ['/usr/sbin', '/usr/local/sbin', '/usr/bin', '/usr/local/bin'];
const say = (line) => process.stdout.write(`ensure-mariadb: ${line}\n`);

/** The exit status of the last command that failed, for the last line. */
let failure = '';

function run(command, args) {
  say(`$ ${command} ${args.join(' ')}`);
  const r = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (r.status !== 0) failure = r.error ? `${command}: ${r.error.message}` : `${command} ${args.at(-1)} exited ${r.status ?? r.signal}`;
  return r.status === 0;
}

function find(...names) {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...SBIN];
  for (const name of names) for (const dir of dirs) if (existsSync(join(dir, name))) return join(dir, name);
  return undefined;
}

const programs = () => ({ server: find('mariadbd', 'mysqld'), install: find('mariadb-install-db', 'mysql_install_db') });
const present = () => {
  const p = programs();
  return p.server !== undefined && p.install !== undefined;
};
const HOW = `install ${PACKAGES.join(' and ')} (as root: "apt-get install -y --no-install-recommends ${PACKAGES.join(' ')}"), or set MARIADB_URL to a MariaDB or MySQL server whose user may create databases`;

function fail(reason) {
  say(`${reason}; the tests need a MariaDB server: ${HOW}.`);
  process.exit(1);
}

if (process.env.MARIADB_URL) {
  say('MARIADB_URL is set: the tests use that server.');
} else if (present()) {
  say(`${programs().server} is installed.`);
} else if (process.platform !== 'linux' || spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status !== 0) {
  fail('mariadbd is missing and apt-get is not available here');
} else if (typeof process.getuid === 'function' && process.getuid() !== 0) {
  fail('mariadbd is missing and installing it needs root');
} else {
  say(
    `mariadbd is missing; installing ${PACKAGES.join(' and ')} (waiting up to ${LOCK_TIMEOUT} s for a package lock held by another process).`,
  );
  const install = () => run('apt-get', [...APT, 'install', '-y', '--no-install-recommends', ...PACKAGES]);
  const ok = install() || (run('apt-get', [...APT, 'update']) && install());
  if (present())
    say(
      ok
        ? `installed ${programs().server}.`
        : `${failure || 'apt-get failed'}, but ${programs().server} is installed now (by another process).`,
    );
  else
    fail(ok ? 'apt-get installed the packages, but mariadbd or mariadb-install-db is still not found' : `installing failed (${failure})`);
}
