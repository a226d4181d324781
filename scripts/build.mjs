#!/usr/bin/env node
// `npm run build`: compiles the framework (runtime/, generator/; the CLI is
// runtime/cli) to JavaScript with declarations under dist/ with tsc
// (tsconfig.build.json), then copies the non-TypeScript files the code reads
// next to itself (migrations, the schema language's JSON Schema) and writes
// the language schema's compiled validator next to it. dist/ is
// what an installed package runs (docs/package.md); it is not committed.
// dist/bindery-build.json records a hash of every source, so that
// NODE_ENV=production in this repository refuses a stale dist/
// (bin/bindery.mjs; the same manifest as `bindery build` writes).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(repo, 'dist');
const started = Date.now();
rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-p', join(repo, 'tsconfig.build.json')], {
  stdio: 'inherit',
});

let copied = 0;
const inputs = {};
function copyAssets(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) copyAssets(path);
    else {
      inputs[relative(repo, path).split(sep).join('/')] = createHash('sha256').update(readFileSync(path)).digest('hex');
      if (!e.name.endsWith('.ts')) {
        cpSync(path, join(dist, relative(repo, path)));
        copied++;
      }
    }
  }
}
copyAssets(join(repo, 'generator'));
copyAssets(join(repo, 'runtime'));
// The language schema's validator, compiled once here rather than on every cold `generate` (generator/load/language-validator.ts).
const { LANGUAGE_VALIDATOR_FILE, languageValidatorSource } = await import(
  new URL('../dist/generator/load/language-validator.js', import.meta.url).href
);
writeFileSync(join(dist, 'generator/language', LANGUAGE_VALIDATOR_FILE), languageValidatorSource());
const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const manifest = { bindery: version, entries: ['runtime/cli/main.ts'], copiedDirs: ['generator', 'runtime'], inputs };
writeFileSync(join(dist, 'bindery-build.json'), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`Built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s (${copied} asset files copied).`);
