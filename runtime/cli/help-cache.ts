/**
 * The help of the app's own commands without loading the app (docs/cli.md
 * "Help without loading the app"). Listing `mail:outbox` or `jobs:failed`
 * in `bindery --help` needs the app module — its setup steps and plugins
 * bring those commands — and loading it takes a second or more in
 * development (tsx, the whole runtime). So whenever the CLI has loaded the
 * app's commands it keeps the rendered help in
 * `node_modules/.cache/bindery/cli-help.json`, with a fingerprint of what
 * could change it: the bindery version, the size and time of the CLI's own
 * modules (the core commands and how their help is rendered), the app
 * module, the size and time of every file in the app module's folder,
 * `package.json` and the lock files (a plugin added or removed). `--help` uses it only when the
 * fingerprint still matches; otherwise it lists the core commands and says
 * how to list the app's.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The CLI's own folder (its commands included): a change there changes the core commands' help. */
const CLI_DIR = fileURLToPath(new URL('.', import.meta.url));

/** The help text of one screen, with and without colours. */
export interface HelpText {
  readonly plain: string;
  readonly colored: string;
}

/** What the cache file holds. */
export interface HelpCache {
  readonly fingerprint: string;
  /** The full help (`bindery --help`), core and app commands. */
  readonly full: HelpText;
  /** Each app command's detailed help, by its path (`mail:outbox`, words joined by a space). */
  readonly commands: Readonly<Record<string, HelpText>>;
}

/** Where the cache of `cwd`'s project lives. */
export function helpCachePath(cwd: string): string {
  return join(cwd, 'node_modules', '.cache', 'bindery', 'cli-help.json');
}

/** Size and modification time of each file under `dir` (not node_modules, not dot folders), sorted. */
function treeStamp(dir: string, out: string[]): void {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) treeStamp(path, out);
    else out.push(fileStamp(path));
  }
}

function fileStamp(path: string): string {
  try {
    const s = statSync(path);
    return `${path}:${s.size}:${s.mtimeMs}`;
  } catch {
    return `${path}:-`;
  }
}

/**
 * The fingerprint of what decides the app's commands (a few milliseconds: `stat` calls only).
 * @param cwd the project root.
 * @param appModule the app module as given (`app/main.ts`), relative to `cwd`.
 * @param version bindery's version.
 */
export function appFingerprint(cwd: string, appModule: string, version: string): string {
  const app = resolve(cwd, appModule);
  const parts = [version];
  treeStamp(CLI_DIR, parts);
  parts.push(app, fileStamp(app));
  treeStamp(dirname(app), parts);
  for (const file of ['package.json', 'package-lock.json', 'node_modules/.package-lock.json']) parts.push(fileStamp(join(cwd, file)));
  return parts.join('\n');
}

/** The cached help of `cwd`'s project when its fingerprint is `fingerprint`; otherwise `undefined`. */
export function readHelpCache(cwd: string, fingerprint: string): HelpCache | undefined {
  try {
    const cache = JSON.parse(readFileSync(helpCachePath(cwd), 'utf8')) as HelpCache;
    return cache.fingerprint === fingerprint ? cache : undefined;
  } catch {
    return undefined;
  }
}

/** Keep `cache` for `cwd`'s project; a folder that cannot be written is skipped (the help is then slower, never wrong). */
export function writeHelpCache(cwd: string, cache: HelpCache): void {
  const path = helpCachePath(cwd);
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(cache)}\n`);
  } catch {
    // read-only project folder: nothing kept.
  }
}
