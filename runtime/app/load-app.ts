/**
 * Importing the app module (`app/main.ts` under the project root, or `--app`).
 *
 * Under `NODE_ENV=production` the compiled module is imported instead:
 * `app/main.ts` → `build/app/main.js`, written by `bindery build`
 * (docs/deploy.md#the-production-build); a missing or stale build is refused.
 */
import { access } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isApp, type App } from './define-app.js';
import { AppDefinitionError } from './errors.js';
import { isCodedError } from '../errors/coded-error.js';
import { BUILD_DIR, checkBuild } from './build-project.js';

/** The app module path when `--app` is not given. */
export const DEFAULT_APP_MODULE = 'app/main.ts';

/**
 * Whether the CLI runs the production build: `NODE_ENV=production` in the
 * process environment (`bin/bindery.mjs` applies the same rule to skip tsx).
 */
export function runsBuild(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV?.trim() === 'production';
}

/**
 * @param root project root.
 * @param path module path, relative to `root` or absolute (default `app/main.ts`).
 * @returns the module's default export.
 * @throws {AppDefinitionError} when the file is missing, fails to load (non-coded errors), or does not default-export `defineApp(...)`; under `NODE_ENV=production` also when the build is missing or stale.
 */
export async function loadApp(root: string, path = DEFAULT_APP_MODULE): Promise<App> {
  const production = runsBuild();
  const source = resolve(root, path);
  const file = production ? await builtModule(root, source) : source;
  const shown = relative(root, file) || file;
  try {
    await access(file);
  } catch {
    throw new AppDefinitionError(`No app module at ${shown}: create it with "export default defineApp({ … })", or pass --app <file>.`);
  }
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (error) {
    if (isCodedError(error)) throw error;
    const code = (error as { code?: unknown }).code;
    const hint =
      code === 'ERR_UNKNOWN_FILE_EXTENSION'
        ? ' (TypeScript runs through tsx: npm install --save-dev tsx; or build with "bindery build" and run with NODE_ENV=production)'
        : '';
    throw new AppDefinitionError(`Cannot load the app module ${shown}: ${(error as Error).message}${hint}`, { cause: error });
  }
  if (!isApp(mod.default)) {
    throw new AppDefinitionError(
      `${shown} must default-export the result of defineApp({ … }); its default export is ${mod.default === undefined ? 'missing' : typeof mod.default}.`,
    );
  }
  return mod.default;
}

/** The built counterpart of an app module, after checking the build is there and current. */
async function builtModule(root: string, source: string): Promise<string> {
  const rel = relative(root, source);
  if (rel.startsWith('..'))
    throw new AppDefinitionError(`NODE_ENV=production runs the build, and the app module ${source} is outside the project.`);
  const problem = await checkBuild(root);
  if (problem !== undefined) {
    throw new AppDefinitionError(
      `NODE_ENV=production runs the compiled app, but ${problem}. Run "bindery build" (npm run build), or unset NODE_ENV to run the TypeScript sources.`,
    );
  }
  return join(root, BUILD_DIR, rel.replace(/\.([mc]?)tsx?$/, '.$1js'));
}
