/**
 * Compiling a project's TypeScript to JavaScript for production
 * (docs/deploy.md#the-production-build): what `bindery build` does.
 *
 * tsc (the project's `typescript`, else bindery's) compiles the entry
 * modules and every module they import into the output folder, mirroring
 * the project's layout (`app/main.ts` → `build/app/main.js`); then every
 * non-TypeScript file of the folders that hold compiled code (views, assets,
 * migrations, `generated/openapi.json`) and the message catalogs (`lang/`) are copied next to it, so an app whose
 * `root` is computed from its own module finds them there. A manifest
 * ({@link BUILD_MANIFEST}) records a hash of every input, which
 * {@link checkBuild} compares when the built app is started.
 *
 * Everything is written to a staging folder next to the output folder and
 * moved into it only once the build succeeded: a build that fails (a type
 * error, a compiler that is missing or cannot start) leaves the previous
 * build as it was.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { AppDefinitionError } from './errors.js';
import { binderyPackageRoot, binderyVersion } from '../support/package-root.js';
import { devToolMissing } from '../support/dev-tools.js';

const run = promisify(execFile);

/** The output folder of an app's build, relative to the project root; `bindery serve|worker|migrate|start` load it under `NODE_ENV=production`. */
export const BUILD_DIR = 'build';

/** The manifest a build writes in its output folder. */
export const BUILD_MANIFEST = 'bindery-build.json';

/** What {@link buildProject} compiles and where. */
export interface BuildOptions {
  /** The project root (absolute). */
  readonly root: string;
  /** Entry modules, relative to `root` (e.g. `['app/main.ts']`); everything they import is compiled too. */
  readonly entries: readonly string[];
  /** The output folder, relative to `root` (default {@link BUILD_DIR}). */
  readonly outDir?: string;
  /** Also emit `.d.ts` declarations (for a package such as a plugin). */
  readonly declaration?: boolean;
  /** More folders, relative to `root`, whose non-TypeScript files are copied (besides those holding compiled code). */
  readonly copy?: readonly string[];
}

/** What a build wrote. */
export interface BuildResult {
  /** The output folder (absolute). */
  readonly outDir: string;
  /** Compiled TypeScript files, relative to `root`. */
  readonly compiled: readonly string[];
  /** Copied files, relative to `root`. */
  readonly copied: readonly string[];
  /** Wall time, milliseconds. */
  readonly ms: number;
}

/** The manifest's shape (`<outDir>/bindery-build.json`). */
interface BuildManifest {
  readonly bindery: string;
  readonly entries: readonly string[];
  /** Folders (relative to the root) whose non-TypeScript files were copied. */
  readonly copiedDirs: readonly string[];
  /** Every input, relative to the root → sha256 hex of its content. */
  readonly inputs: Readonly<Record<string, string>>;
}

const TS_SOURCE = /\.(?:ts|tsx|mts|cts)$/;
const isTypeScript = (name: string) => TS_SOURCE.test(name);
const posix = (path: string) => path.split(sep).join('/');

/**
 * Compile and copy (see the module comment) into a staging folder, then
 * replace the output folder's content with it; an embedded PostgreSQL's
 * `.data/` in the output folder is kept. On any failure the output folder is
 * left untouched.
 *
 * @throws {AppDefinitionError} when an entry is missing or outside the root, or tsc reports errors (its output is in the message).
 * @throws {CodedError} `BINDERY_TOOL_MISSING` when TypeScript is not installed (checked before anything is written).
 */
export async function buildProject(options: BuildOptions): Promise<BuildResult> {
  const started = Date.now();
  const root = resolve(options.root);
  const outRel = options.outDir ?? BUILD_DIR;
  const outDir = resolve(root, outRel);
  if (outDir === root || !outDir.startsWith(root + sep))
    throw new AppDefinitionError(`The build's output folder must be inside the project: ${outRel}`);
  for (const entry of options.entries) {
    const rel = relative(root, resolve(root, entry));
    if (rel.startsWith('..')) throw new AppDefinitionError(`Cannot build ${entry}: it is outside the project ${root}.`);
    if (!existsSync(join(root, rel))) throw new AppDefinitionError(`Cannot build ${entry}: no such file.`);
    if (!isTypeScript(rel)) throw new AppDefinitionError(`Cannot build ${entry}: not a TypeScript file.`);
  }
  const tsc = tscPath(root);
  // A sibling of the output folder, so the source maps' relative paths are the same from both.
  const stage = join(dirname(outDir), `.${basename(outDir)}.building-${process.pid}`);
  await rm(stage, { recursive: true, force: true });
  try {
    const result = await buildInto(root, stage, tsc, options);
    await replaceContent(outDir, stage);
    return { outDir, ...result, ms: Date.now() - started };
  } catch (error) {
    if (!(error instanceof AppDefinitionError) || !existsSync(join(outDir, BUILD_MANIFEST))) throw error;
    throw new AppDefinitionError(`${error.message}\n${posix(outRel)}/ keeps the previous build.`, { cause: error.cause });
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

/** Compile, copy and write the manifest into `outDir` (a fresh folder). */
async function buildInto(
  root: string,
  outDir: string,
  tsc: string,
  options: BuildOptions,
): Promise<{ compiled: readonly string[]; copied: readonly string[] }> {
  await mkdir(outDir, { recursive: true });
  await compile(root, outDir, tsc, options);

  const compiled: string[] = [];
  for (const file of await listFiles(outDir)) {
    const source = sourceOf(root, relative(outDir, file));
    if (source !== undefined) compiled.push(source);
  }
  const tops = new Set(compiled.map((f) => f.split('/')[0]!).filter((top) => !isTypeScript(top)));
  // The message catalogs (docs/i18n.md) go with the build: the built app reads them from its root.
  const catalogs = existsSync(join(root, 'lang')) ? ['lang'] : [];
  const copiedDirs = [
    ...new Set([...tops, ...catalogs, ...(options.copy ?? []).map((d) => posix(relative(root, resolve(root, d))))]),
  ].sort();
  const copied: string[] = [];
  for (const dir of copiedDirs) {
    for (const file of await listFiles(join(root, dir))) {
      const rel = posix(relative(root, file));
      if (isTypeScript(rel)) continue;
      await mkdir(dirname(join(outDir, rel)), { recursive: true });
      await cp(file, join(outDir, rel));
      copied.push(rel);
    }
  }
  const inputs: Record<string, string> = {};
  for (const rel of [...compiled, ...copied].sort()) inputs[rel] = await hashFile(join(root, rel));
  const manifest: BuildManifest = {
    bindery: binderyVersion(),
    entries: options.entries.map((e) => posix(relative(root, resolve(root, e)))),
    copiedDirs,
    inputs,
  };
  await writeFile(join(outDir, BUILD_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return { compiled: compiled.sort(), copied: copied.sort() };
}

/**
 * Whether the build in `<root>/<outDir>` is there and current.
 *
 * Without the sources (a production image carries only the build) the
 * build is taken as it is. With them, every input recorded at build time
 * must still have the same content, and the copied folders no new files.
 *
 * @returns `undefined` when usable, else a one-line reason ("no build at …", "… changed since the build").
 */
export async function checkBuild(root: string, outDir = BUILD_DIR): Promise<string | undefined> {
  const manifestFile = join(root, outDir, BUILD_MANIFEST);
  let manifest: BuildManifest;
  try {
    manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as BuildManifest;
  } catch {
    return `no build at ${outDir}/ (its ${BUILD_MANIFEST} is missing or unreadable)`;
  }
  if (!manifest.entries.some((entry) => existsSync(join(root, entry)))) return undefined;
  const changed: string[] = [];
  for (const [rel, hash] of Object.entries(manifest.inputs)) {
    const now = await hashFile(join(root, rel)).catch(() => 'missing');
    if (now !== hash) changed.push(now === 'missing' ? `${rel} (removed)` : rel);
  }
  for (const dir of manifest.copiedDirs) {
    for (const file of await listFiles(join(root, dir))) {
      const rel = posix(relative(root, file));
      if (!isTypeScript(rel) && manifest.inputs[rel] === undefined) changed.push(`${rel} (new)`);
    }
  }
  if (changed.length === 0) return undefined;
  return `${outDir}/ is stale: ${changed.slice(0, 3).join(', ')}${changed.length > 3 ? ` and ${changed.length - 3} more` : ''} changed since the build`;
}

/** Run tsc on a configuration written under `node_modules/.cache/bindery` (so `types` resolve from the project). */
async function compile(root: string, outDir: string, tsc: string, options: BuildOptions): Promise<void> {
  const cacheDir = join(root, 'node_modules', '.cache', 'bindery');
  await mkdir(cacheDir, { recursive: true });
  const config = join(cacheDir, 'tsconfig.build.json');
  const base = join(root, 'tsconfig.json');
  await writeFile(
    config,
    JSON.stringify(
      {
        ...(existsSync(base) ? { extends: base } : {}),
        compilerOptions: {
          noEmit: false,
          noEmitOnError: true,
          outDir,
          rootDir: root,
          // Installed packages' entries (bindery's dist/*.d.ts), not a source condition.
          customConditions: [],
          declaration: options.declaration ?? false,
          sourceMap: true,
          incremental: false,
          composite: false,
        },
        files: options.entries.map((e) => resolve(root, e)),
        include: [],
      },
      null,
      2,
    ),
  );
  try {
    await run(process.execPath, [tsc, '-p', config, '--pretty', 'false'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    const output = `${e.stdout ?? ''}${e.stderr ?? ''}`.trim() || e.message;
    throw new AppDefinitionError(
      `The build failed: tsc reported\n${output
        .split('\n')
        .map((l) => `  ${l.replaceAll(root + sep, '')}`)
        .join('\n')}`,
    );
  }
}

/**
 * tsc's script: the project's `typescript`, else one bindery can resolve.
 * @throws {CodedError} `BINDERY_TOOL_MISSING` when neither is installed.
 */
function tscPath(root: string): string {
  for (const from of [join(root, 'package.json'), join(binderyPackageRoot(), 'package.json')]) {
    try {
      const pkgFile = createRequire(from).resolve('typescript/package.json');
      const tsc = join(dirname(pkgFile), 'bin', 'tsc');
      if (existsSync(tsc)) return tsc;
    } catch {
      // next
    }
  }
  throw devToolMissing('typescript', { task: 'bindery build' });
}

/** The TypeScript source of an emitted `.js` (relative to the output folder), when it exists. */
function sourceOf(root: string, emitted: string): string | undefined {
  const rel = posix(emitted);
  const candidates = rel.endsWith('.mjs')
    ? [rel.replace(/\.mjs$/, '.mts')]
    : rel.endsWith('.cjs')
      ? [rel.replace(/\.cjs$/, '.cts')]
      : rel.endsWith('.js')
        ? [rel.replace(/\.js$/, '.ts'), rel.replace(/\.js$/, '.tsx')]
        : [];
  return candidates.find((c) => existsSync(join(root, c)));
}

/** Replace what `outDir` holds (but an embedded PostgreSQL's `.data/`) with the entries of `stage`, each moved by a rename. */
async function replaceContent(outDir: string, stage: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  for (const name of await readdir(outDir)) {
    if (name !== '.data') await rm(join(outDir, name), { recursive: true, force: true });
  }
  for (const name of await readdir(stage)) await rename(join(stage, name), join(outDir, name));
}

/** Files under `dir` (absolute paths), skipping `node_modules` and dot-folders; none when `dir` is missing. */
async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && !e.name.startsWith('.')) out.push(...(await listFiles(path)));
    } else if (e.isFile()) out.push(path);
  }
  return out;
}

async function hashFile(file: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
}
