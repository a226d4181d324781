/**
 * Creating `.env` when it is missing, with a fresh `APP_KEY` (`bindery
 * start`, `bindery key:generate`; docs/cli.md).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateAppKey } from '../config/app-key.js';
import { coreSettings } from '../config/core-settings.js';
import { envFilePath, setEnvFileValues } from '../config/env-file.js';
import { renderEnvFile } from '../config/env-example.js';

/** The title of an env file rendered from the settings declarations. */
export const ENV_FILE_TITLE = 'bindery settings (docs/settings.md). Real environment variables win over this file.';

/**
 * Create `<root>/.env` unless it exists: a copy of `.env.example` with `APP_KEY` filled in,
 * or, without an example, every core setting documented and a fresh `APP_KEY`.
 * The file is written with mode 0600 (it holds the key).
 * @param key the key to write (default: a fresh one).
 * @returns `undefined` when `.env` existed; otherwise where its content came from.
 */
export async function ensureEnvFile(root: string, key: string = generateAppKey()): Promise<'.env.example' | 'defaults' | undefined> {
  const path = envFilePath(root);
  try {
    await readFile(path);
    return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const example = await readFile(join(root, '.env.example'), 'utf8').catch(() => undefined);
  const text = example !== undefined
    ? setEnvFileValues(example, { APP_KEY: key })
    : renderEnvFile(coreSettings, { title: ENV_FILE_TITLE, values: { APP_KEY: key } });
  await writeFile(path, text, { mode: 0o600, flag: 'wx' });
  return example !== undefined ? '.env.example' : 'defaults';
}
