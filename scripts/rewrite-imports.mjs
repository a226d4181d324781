#!/usr/bin/env node
// Rewrites relative runtime imports (`'../../runtime/http/context.js'`) in
// the given folders to the public entries (`'bindery/http'`), and the old
// plugin-style `'bindery/runtime/<path>.js'` likewise. Mechanical: a path maps
// to the entry of its folder (the nearest folder listed in package.json's
// `exports`); a name the entry does not export shows up in `npm run
// typecheck`, and is then added to that entry's index.ts (if it is public)
// or the import is dropped. docs/package.md.
//
//   node scripts/rewrite-imports.mjs [folder ...]   (default: app plugins bench)
//   node scripts/rewrite-imports.mjs --check [folder ...]   exit 1 if anything would change
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8'));
const entries = Object.keys(pkg.exports)
  .filter((k) => k !== './package.json' && !k.includes('*'))
  .map((k) => k.slice(2))
  .sort((a, b) => b.length - a.length);

const args = process.argv.slice(2);
const check = args.includes('--check');
const folders = args.filter((a) => a !== '--check');
const roots = (folders.length > 0 ? folders : ['app', 'plugins', 'bench']).map((f) => resolve(repo, f));

/** The public entry for a runtime-relative path (`http/context.js` → `http`), or undefined. */
function entryFor(runtimePath) {
  const dir = runtimePath.split('/').slice(0, -1).join('/');
  for (const entry of entries) if (dir === entry || dir.startsWith(`${entry}/`)) return entry;
  return undefined;
}

async function* sources(dir) {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* sources(path);
    else if (/\.(ts|mts)$/.test(e.name)) yield path;
  }
}

const runtimeDir = join(repo, 'runtime');
const SPEC = /(from\s+|import\s*\(\s*|declare module\s+)'([^']+)'/g;
let changed = 0;
const unknown = [];
for (const root of roots) {
  for await (const file of sources(root)) {
    const text = await readFile(file, 'utf8');
    const next = text.replace(SPEC, (all, lead, spec) => {
      let runtimePath;
      if (spec.startsWith('bindery/runtime/')) runtimePath = spec.slice('bindery/runtime/'.length);
      else if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec);
        if (!target.startsWith(runtimeDir + sep)) return all;
        runtimePath = relative(runtimeDir, target).split(sep).join('/');
      } else return all;
      const entry = entryFor(runtimePath);
      if (entry === undefined) {
        unknown.push(`${relative(repo, file)}: ${spec}`);
        return all;
      }
      return `${lead}'bindery/${entry}'`;
    });
    if (next !== text) {
      changed++;
      if (!check) await writeFile(file, next);
      console.log(`${check ? 'would rewrite' : 'rewrote'} ${relative(repo, file)}`);
    }
  }
}
for (const u of unknown) console.error(`no public entry for ${u}`);
if (check && changed > 0) process.exitCode = 1;
if (unknown.length > 0) process.exitCode = 1;
