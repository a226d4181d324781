#!/usr/bin/env node
// Installs Node.js versions from the npm registry into .node/<version>/
// (git- and docker-ignored), for running the test suite on the versions
// bindery supports (CONTRIBUTING.md "Node.js versions"; .ci/run): the
// registry's `node-<platform>-<arch>` packages carry the official binaries.
//
//   node scripts/install-node.mjs 24 22.12.0     # a major (its newest) or an exact version
//   node scripts/install-node.mjs --lowest       # the lowest version package.json engines names
//   .node/24/bin/node --version                  # each install's bin/ (node, and npm's own on PATH)
//
// Prints one line per version: `<spec> <version> <bin folder>`. An install
// whose version already matches is kept. Runs on any Node bindery runs on.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(fileURLToPath(new URL('..', import.meta.url)));
const pkgName = `node-${platform()}-${arch()}`;

/** The lowest version `engines.node` admits: the first `x.y(.z)` of its lowest alternative (`^22.12 || >=24` → 22.12.0). */
export function lowestEngine(range) {
  const versions = [...range.matchAll(/(\d+)(?:\.(\d+))?(?:\.(\d+))?/g)].map((m) => [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)]);
  if (versions.length === 0) throw new Error(`engines.node "${range}" names no version`);
  versions.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  return versions[0].join('.');
}

function installed(dir) {
  const file = join(dir, 'node_modules', pkgName, 'package.json');
  // Some of these packages write their version with a leading v (v22.12.0).
  return existsSync(file) ? String(JSON.parse(readFileSync(file, 'utf8')).version).replace(/^v/, '') : undefined;
}

function matches(version, spec) {
  return version !== undefined && (version === spec || (/^\d+$/.test(spec) && version.startsWith(`${spec}.`)));
}

const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: node scripts/install-node.mjs <major|version|--lowest> …');
  process.exit(2);
}
for (const arg of args) {
  const spec = arg === '--lowest' ? lowestEngine(JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).engines.node) : arg;
  if (!/^\d+(\.\d+\.\d+)?$/.test(spec)) {
    console.error(`install-node: "${spec}" is neither a major version (24) nor an exact one (22.12.0)`);
    process.exit(2);
  }
  const dir = join(repo, '.node', spec);
  if (!matches(installed(dir), spec)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // --prefix: into this folder; no package.json or lock file is written (--no-save, --no-package-lock).
    execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', dir, `${pkgName}@${spec}`], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    // bin/: the node binary, and npm (the machine's, run by this node when bin/ is first on PATH).
    mkdirSync(join(dir, 'bin'));
    symlinkSync(join(dir, 'node_modules', pkgName, 'bin', 'node'), join(dir, 'bin', 'node'));
  }
  const version = installed(dir);
  if (!matches(version, spec)) {
    console.error(`install-node: ${pkgName}@${spec} installed ${version ?? 'nothing'}`);
    process.exit(1);
  }
  console.log(`${spec} ${version} ${join(dir, 'bin')}`);
}
