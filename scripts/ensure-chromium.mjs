#!/usr/bin/env node
/**
 * Make sure Debian's Chromium is there for the browser tests (test/browser/;
 * docs/pages.md "Browser tests"). Run by `npm test` (pretest) and by hand:
 * `node scripts/ensure-chromium.mjs`.
 *
 * - `/usr/bin/chromium` (or CHROMIUM_PATH) exists: nothing to do.
 * - Otherwise, as root with apt-get: `apt-get install -y --no-install-recommends chromium`
 *   (after `apt-get update` when the package is unknown), waiting up to
 *   LOCK_TIMEOUT seconds for a package lock another process holds (another
 *   install, an unattended upgrade) instead of giving up at once.
 * - Otherwise: say why the browser tests will fail. Never fails the
 *   run itself: exit code 0 either way (each browser test then fails saying how to get Chromium).
 *
 * What it says last is checked against the disk: when apt-get failed but the
 * binary is there all the same (installed meanwhile by someone else), it
 * says the browser tests will run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** Seconds apt-get waits for the dpkg (and lists) lock before it fails. */
const LOCK_TIMEOUT = 300;
const APT = ['-o', `DPkg::Lock::Timeout=${LOCK_TIMEOUT}`];
const say = (line) => process.stdout.write(`ensure-chromium: ${line}\n`);

/** The exit status of the last command that failed, for the last line. */
let failure = '';

function run(command, args) {
  say(`$ ${command} ${args.join(' ')}`);
  const r = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (r.status !== 0) failure = r.error ? `${command}: ${r.error.message}` : `${command} ${args.at(-1)} exited ${r.status ?? r.signal}`;
  return r.status === 0;
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

if (existsSync(path)) {
  say(`${path} is installed.`);
} else if (process.platform !== 'linux' || !hasCommand('apt-get')) {
  say(
    `${path} is missing and apt-get is not available here; the browser tests will fail (set CHROMIUM_PATH to a Chromium binary to run them).`,
  );
} else if (typeof process.getuid === 'function' && process.getuid() !== 0) {
  say(
    `${path} is missing and installing it needs root; run "sudo apt-get install -y --no-install-recommends chromium". The browser tests will fail until then.`,
  );
} else {
  say(
    `${path} is missing; installing Debian's chromium package (waiting up to ${LOCK_TIMEOUT} s for a package lock held by another process).`,
  );
  const install = () => run('apt-get', [...APT, 'install', '-y', '--no-install-recommends', 'chromium']);
  const ok = install() || (run('apt-get', [...APT, 'update']) && install());
  if (ok && existsSync(path)) say(`installed ${path}.`);
  else if (existsSync(path))
    say(`${failure || 'apt-get failed'}, but ${path} is installed now (by another process): the browser tests will run.`);
  else if (ok)
    say(`apt-get installed chromium, but not at ${path}; the browser tests will fail (set CHROMIUM_PATH to the binary to run them).`);
  else
    say(
      `installing chromium failed (${failure}); the browser tests will fail unless ${path} is installed before they start (run "apt-get install -y chromium", or set CHROMIUM_PATH).`,
    );
}
