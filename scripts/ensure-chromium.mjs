#!/usr/bin/env node
/**
 * Make sure Debian's Chromium is there for the browser tests (test/browser/;
 * docs/pages.md "Browser tests"). Run by `npm test` (pretest) and by hand:
 * `node scripts/ensure-chromium.mjs`.
 *
 * - `/usr/bin/chromium` (or CHROMIUM_PATH) exists: nothing to do.
 * - Otherwise, as root with apt-get: `apt-get install -y --no-install-recommends chromium`
 *   (after `apt-get update` when the package is unknown).
 * - Otherwise: say why the browser tests will be skipped. Never fails the
 *   run: exit code 0 either way (the tests print the reason when they skip).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const say = (line) => process.stdout.write(`ensure-chromium: ${line}\n`);

function run(command, args) {
  say(`$ ${command} ${args.join(' ')}`);
  const r = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return r.status === 0;
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

if (existsSync(path)) {
  say(`${path} is installed.`);
} else if (process.platform !== 'linux' || !hasCommand('apt-get')) {
  say(
    `${path} is missing and apt-get is not available here; the browser tests will be skipped (set CHROMIUM_PATH to a Chromium binary to run them).`,
  );
} else if (typeof process.getuid === 'function' && process.getuid() !== 0) {
  say(
    `${path} is missing and installing it needs root; run "sudo apt-get install -y --no-install-recommends chromium". The browser tests will be skipped until then.`,
  );
} else {
  say(`${path} is missing; installing Debian's chromium package.`);
  let ok = run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium']);
  if (!ok) ok = run('apt-get', ['update']) && run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium']);
  if (ok && existsSync(path)) say(`installed ${path}.`);
  else say(`installing chromium failed; the browser tests will be skipped.`);
}
