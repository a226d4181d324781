#!/usr/bin/env node
// `npm run build`: compiles the framework (runtime/, generator/; the CLI is
// runtime/cli) to JavaScript with declarations under dist/ with tsc
// (tsconfig.build.json), then copies the non-TypeScript files the code reads
// next to itself (migrations, the schema language's JSON Schema). dist/ is
// what an installed package runs (docs/package.md); it is not committed.
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(repo, 'dist');
const started = Date.now();
rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-p', join(repo, 'tsconfig.build.json')], { stdio: 'inherit' });

let copied = 0;
function copyAssets(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) copyAssets(path);
    else if (!e.name.endsWith('.ts')) {
      cpSync(path, join(dist, relative(repo, path)));
      copied++;
    }
  }
}
copyAssets(join(repo, 'runtime'));
copyAssets(join(repo, 'generator'));
console.log(`Built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s (${copied} asset files copied).`);
