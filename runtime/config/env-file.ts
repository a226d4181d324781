/**
 * The `.env` file at the project root (docs/settings.md ".env").
 *
 * Parsed with Node's `util.parseEnv` (dotenv syntax: `NAME=value`, quotes,
 * `#` comments, `export ` prefixes). Real environment variables win over the
 * file, even when set to an empty string (as with dotenv and
 * `process.loadEnvFile`).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import type { Env } from './setting.js';

/** Absolute path of the `.env` file of a project. */
export function envFilePath(root: string): string {
  return join(root, '.env');
}

/**
 * Read and parse an env file.
 * @returns the variables it sets, or `undefined` when the file does not exist.
 * @throws the read error for anything but a missing file.
 */
export async function readEnvFile(path: string): Promise<Record<string, string> | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return parseEnv(text) as Record<string, string>;
}

/**
 * The environment an app boots with: `<root>/.env` overlaid by the real environment.
 * @param root project root (absolute).
 * @param processEnv the real environment (default `process.env`); its defined values win.
 * @returns a new frozen object; neither input is modified.
 */
export async function loadEnvironment(root: string, processEnv: Env = process.env): Promise<Env> {
  const file = (await readEnvFile(envFilePath(root))) ?? {};
  const merged: Record<string, string | undefined> = { ...file };
  for (const [name, value] of Object.entries(processEnv)) if (value !== undefined) merged[name] = value;
  return Object.freeze(merged);
}

function quote(value: string): string {
  return /^[A-Za-z0-9_./:+=,@%-]*$/.test(value) ? value : JSON.stringify(value);
}

/**
 * Set variables in the text of an env file, keeping every other line, comment and the order.
 *
 * Each `NAME=…` line (also `export NAME=…`) of an updated name gets the new
 * value; a name without a line is appended at the end. Values with spaces,
 * `#` or quotes are written double-quoted.
 *
 * @param text current file text ('' for a new file).
 * @param updates name → new value.
 * @returns the new file text, ending with a newline.
 */
export function setEnvFileValues(text: string, updates: Readonly<Record<string, string>>): string {
  const lines = text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
  const done = new Set<string>();
  const out = lines.map((line) => {
    const m = /^(\s*(?:export\s+)?)([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line);
    const name = m?.[2];
    if (!m || name === undefined || !(name in updates)) return line;
    done.add(name);
    return `${m[1]}${name}=${quote(updates[name]!)}`;
  });
  for (const [name, value] of Object.entries(updates)) if (!done.has(name)) out.push(`${name}=${quote(value)}`);
  return `${out.join('\n')}\n`;
}
