/**
 * The record of the last successful `generate`: a fingerprint of everything
 * the output depends on (the generator's own code, the options, package.json,
 * the schema files) and a hash of every file of the output folder as that run
 * left it. When both still match, the output cannot have changed, and
 * `generate` (with or without `--check`) answers "up to date" without
 * loading, compiling or printing anything (see docs/generator.md, "Speed").
 *
 * The record lives in `<root>/node_modules/.cache/bindery/` (only when the
 * project has a `node_modules` folder); it is a cache: deleting it costs one
 * full run, and any unreadable or foreign record is ignored.
 */
import { createHash } from 'node:crypto';
import { type Dirent, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FileTree } from './disk-tree.js';

const RECORD_VERSION = 1;
const GENERATOR_DIR = fileURLToPath(new URL('../', import.meta.url));
const REPO_DIR = fileURLToPath(new URL('../../', import.meta.url));
/** Runtime modules the emitters import (their code shapes the output). */
const RUNTIME_INPUTS = [
  'runtime/validation',
  'runtime/routing/route-table.ts',
  'runtime/db/column-type.ts',
  'runtime/db/engines/postgres/column-types.ts',
  // bindery's own catalogs, which `messages:` keys may name (docs/i18n.md "Checks").
  'runtime/i18n/catalog.ts',
  'runtime/i18n/lang',
];
/** Packages whose version shapes the output. */
const PACKAGES = ['ajv', 'ajv-formats', 'js-yaml', 'ts-morph', 'yaml'];

/** Where a project's record for one output folder lives, or null when the project has no `node_modules`. */
export async function recordPath(root: string, outDir: string): Promise<string | null> {
  try {
    if (!statSync(join(root, 'node_modules')).isDirectory()) return null;
  } catch {
    return null;
  }
  return join(root, 'node_modules', '.cache', 'bindery', `generate-${sha(outDir).slice(0, 16)}.json`);
}

/**
 * The fingerprint of a run's inputs: the generator's code (every file under
 * `generator/`, the runtime modules it reads, the versions of ajv, js-yaml, ts-morph
 * and yaml), `settings` (the resolved options, as JSON), the project's
 * package.json and every file of the schema folder (names and bytes).
 */
export async function inputsKey(root: string, schemaDir: string, settings: unknown): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`v${RECORD_VERSION}\0${generatorFingerprint()}\0${JSON.stringify(settings)}\0`);
  hash.update(readOptional(join(root, 'package.json')));
  // Read synchronously, as are the generator's files: a few hundred small files, each of which
  // would otherwise wait for several turns of the thread pool (the unchanged run is mostly this).
  let names: string[] = [];
  try {
    names = readdirSync(schemaDir, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name)
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  for (const name of names) hash.update(`\0${name}\0`).update(readFileSync(join(schemaDir, name)));
  // The app's catalogs: the schema's `messages:` keys are checked against them (docs/i18n.md "Checks").
  hashTree(hash, join(root, 'lang'), 'lang');
  return hash.digest('hex');
}

/** Add every file under `dir` (sorted, with its path under `label`) to `hash`; nothing when it is absent. */
function hashTree(hash: ReturnType<typeof createHash>, dir: string, label: string): void {
  let entries: Dirent[] = [];
  try {
    entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  for (const e of entries) {
    if (e.isDirectory()) hashTree(hash, join(dir, e.name), `${label}/${e.name}`);
    else if (e.isFile()) hash.update(`\0${label}/${e.name}\0`).update(readFileSync(join(dir, e.name)));
  }
}

/** Hashes of every file of a tree, by path; those `known` has (by path) are taken from it instead of hashing the text. */
export function treeHashes(tree: FileTree, known?: ReadonlyMap<string, string>): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const [path, text] of tree) hashes[path] = known?.get(path) ?? sha(text);
  return hashes;
}

/** Whether the record at `path` was made for `key` and the tree is still exactly as that run left it. */
export async function recordMatches(path: string, key: string, tree: FileTree): Promise<boolean> {
  let record: { version?: unknown; key?: unknown; tree?: Record<string, string> };
  try {
    record = JSON.parse(await readFile(path, 'utf8')) as typeof record;
  } catch {
    return false;
  }
  if (record.version !== RECORD_VERSION || record.key !== key || typeof record.tree !== 'object' || record.tree === null) return false;
  const recorded = Object.keys(record.tree);
  if (recorded.length !== tree.size) return false;
  for (const [file, text] of tree) if (record.tree[file] !== sha(text)) return false;
  return true;
}

/**
 * Save the record of a successful run; failures (a read-only folder) are
 * ignored: the record is only a cache. `known`: hashes of some files of the
 * tree already computed (by path), see {@link treeHashes}.
 */
export async function saveRecord(path: string, key: string, tree: FileTree, known?: ReadonlyMap<string, string>): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify({ version: RECORD_VERSION, key, tree: treeHashes(tree, known) }));
    await rename(temporary, path);
  } catch {
    // A cache that cannot be written only costs the next run its shortcut.
  }
}

let fingerprint: string | undefined;

function generatorFingerprint(): string {
  fingerprint ??= (() => {
    const hash = createHash('sha256');
    const files = [listFiles(GENERATOR_DIR), ...RUNTIME_INPUTS.map((p) => listFiles(join(REPO_DIR, p)))].flat().sort();
    for (const file of files) hash.update(`\0${file}\0`).update(readFileSync(file));
    for (const name of PACKAGES) {
      const version = readOptional(join(REPO_DIR, 'node_modules', name, 'package.json'));
      hash.update(`\0${name}\0${(/"version"\s*:\s*"([^"]*)"/.exec(version) ?? [])[1] ?? ''}`);
    }
    return hash.digest('hex');
  })();
  return fingerprint;
}

function listFiles(path: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') return [path];
    if (code === 'ENOENT') return [];
    throw error;
  }
  const files: string[] = [];
  for (const entry of entries) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) files.push(...listFiles(full));
    else if (entry.isFile()) files.push(full);
  }
  return files;
}

function readOptional(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
