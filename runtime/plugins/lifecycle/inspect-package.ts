/**
 * Reading a plugin package's package.json before installing it (`bindery
 * add` checks the framework range first, so a refused plugin changes
 * nothing): from a folder, a tarball (`npm pack` output), or the registry
 * (`npm view`).
 */
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { PluginNotFoundError } from '../errors.js';
import { outputTail, runProcess } from './run-process.js';

/** What `add` learns about a package before installing it. */
export interface PackageInfo {
  /** The spec as given. */
  readonly spec: string;
  /** `folder`, `tarball` or `registry`. */
  readonly kind: 'folder' | 'tarball' | 'registry';
  /** For a folder or tarball: its absolute path. */
  readonly path?: string;
  readonly name: string;
  readonly version: string;
  /** `peerDependencies.bindery`: the framework range it declares (absent: not a bindery plugin). */
  readonly binderyRange?: string;
}

const TARBALL = /\.(tgz|tar\.gz|tar)$/i;

/** How `spec` is to be read: a local folder, a local tarball, or a registry spec (`name`, `name@1.2.3`, `@scope/name@^1`). */
export function specKind(spec: string, cwd: string): { kind: PackageInfo['kind']; path?: string } {
  const local = spec.startsWith('file:') ? spec.slice(5) : spec;
  const path = resolve(cwd, local);
  const looksLocal = spec.startsWith('file:') || spec.startsWith('.') || isAbsolute(spec) || spec.startsWith('~');
  if (looksLocal || existsSync(path)) {
    if (!existsSync(path)) return { kind: TARBALL.test(local) ? 'tarball' : 'folder', path };
    return { kind: statSync(path).isDirectory() ? 'folder' : 'tarball', path };
  }
  return { kind: 'registry' };
}

/** True when `path` is inside `root`. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/**
 * Read the package.json of `spec`.
 * @throws {PluginNotFoundError} when it cannot be found or read.
 */
export async function inspectPackage(spec: string, cwd: string): Promise<PackageInfo> {
  const { kind, path } = specKind(spec, cwd);
  let json: { name?: unknown; version?: unknown; peerDependencies?: Record<string, unknown> };
  if (kind === 'folder') {
    try {
      json = JSON.parse(await readFile(join(path!, 'package.json'), 'utf8')) as typeof json;
    } catch (error) {
      throw new PluginNotFoundError(`Cannot read ${join(spec, 'package.json')}: ${(error as Error).message}.`, { cause: error });
    }
  } else if (kind === 'tarball') {
    if (!existsSync(path!)) throw new PluginNotFoundError(`No file at ${spec}.`);
    const r = await runProcess('tar', ['-xzf', path!, '-O', 'package/package.json'], cwd);
    if (r.code !== 0)
      throw new PluginNotFoundError(
        `Cannot read package/package.json from the tarball ${spec} (is it made by "npm pack"?):\n${outputTail(r)}`,
      );
    try {
      json = JSON.parse(r.stdout) as typeof json;
    } catch (error) {
      throw new PluginNotFoundError(`The package.json in ${spec} is not JSON: ${(error as Error).message}.`, { cause: error });
    }
  } else {
    const r = await runProcess('npm', ['view', spec, 'name', 'version', 'peerDependencies', '--json'], cwd);
    if (r.code !== 0) throw new PluginNotFoundError(`npm cannot find the package ${spec}:\n${outputTail(r)}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(r.stdout);
    } catch (error) {
      throw new PluginNotFoundError(`npm view ${spec} did not answer JSON: ${(error as Error).message}.`, { cause: error });
    }
    // A range matching several versions answers a list, lowest first: take the newest, as npm install would.
    json = (Array.isArray(parsed) ? parsed[parsed.length - 1] : parsed) as typeof json;
  }
  if (typeof json?.name !== 'string' || typeof json.version !== 'string')
    throw new PluginNotFoundError(`The package ${spec} has no name or version in its package.json.`);
  const range = json.peerDependencies?.bindery;
  return {
    spec,
    kind,
    ...(path ? { path } : {}),
    name: json.name,
    version: json.version,
    ...(typeof range === 'string' ? { binderyRange: range } : {}),
  };
}
