/**
 * Importing the app module (`app/main.ts` under the project root, or `--app`).
 */
import { access } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isApp, type App } from '../app/define-app.js';
import { AppDefinitionError } from '../app/errors.js';
import { isCodedError } from '../support/coded-error.js';

/** The app module path when `--app` is not given. */
export const DEFAULT_APP_MODULE = 'app/main.ts';

/**
 * @param root project root.
 * @param path module path, relative to `root` or absolute (default `app/main.ts`).
 * @returns the module's default export.
 * @throws {AppDefinitionError} when the file is missing, fails to load (non-coded errors), or does not default-export `defineApp(...)`.
 */
export async function loadApp(root: string, path = DEFAULT_APP_MODULE): Promise<App> {
  const file = resolve(root, path);
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
    throw new AppDefinitionError(`Cannot load the app module ${shown}: ${(error as Error).message}`, { cause: error });
  }
  if (!isApp(mod.default)) {
    throw new AppDefinitionError(`${shown} must default-export the result of defineApp({ … }); its default export is ${mod.default === undefined ? 'missing' : typeof mod.default}.`);
  }
  return mod.default;
}
