/**
 * The draft migration (docs/generator.md "Draft migrations"): the migration
 * `bindery make:resource` wrote, while nothing on this machine has applied
 * it. Until then the next `generate` folds the schema's changes into it
 * (rewriting it under its number) instead of appending a second migration
 * for a table no database has.
 *
 * "Not applied" is known without a database by a record kept next to the
 * run record, in `<root>/node_modules/.cache/bindery/` — local to the
 * machine, never committed: `make:resource` writes it; `bindery migrate`,
 * `bindery start` and each app process of `bindery dev`, which apply the
 * migrations, delete it; a draft file whose text is no longer what the
 * generator wrote (edited by hand), or that is not the newest migration and
 * the one the snapshot follows, is not a draft. Losing the record (a fresh
 * `npm ci`, a clean checkout) only means the next change gets a migration of
 * its own, as it would without drafts.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

const DRAFT_VERSION = 1;
const PREFIX = 'draft-migration-';

/** What the record holds. */
interface DraftRecord {
  readonly version: number;
  /** The migration's name, without `.sql` (`0002_create_blog_posts`). */
  readonly migration: string;
  /** SHA-256 (hex) of its text as written. */
  readonly sha256: string;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** Where the draft record of the output folder `outDir` (absolute) lives, or null when the project has no `node_modules`. */
export function draftPath(root: string, outDir: string): string | null {
  try {
    if (!statSync(join(root, 'node_modules')).isDirectory()) return null;
  } catch {
    return null;
  }
  return join(root, 'node_modules', '.cache', 'bindery', `${PREFIX}${sha(outDir).slice(0, 16)}.json`);
}

/**
 * The name of the draft migration, when the record names one whose file
 * (in `migrations`, by name without `.sql`) still holds the text the
 * generator wrote; otherwise undefined. Never throws.
 * @param read the text of a migration by name, or undefined when there is no such file.
 */
export async function readDraft(path: string | null, read: (name: string) => string | undefined): Promise<string | undefined> {
  if (path === null) return undefined;
  let record: Partial<DraftRecord>;
  try {
    record = JSON.parse(await readFile(path, 'utf8')) as Partial<DraftRecord>;
  } catch {
    return undefined;
  }
  if (record.version !== DRAFT_VERSION || typeof record.migration !== 'string' || typeof record.sha256 !== 'string') return undefined;
  const text = read(record.migration);
  return text !== undefined && sha(text) === record.sha256 ? record.migration : undefined;
}

/** Record `migration` (its name and text) as the draft. Failures (a read-only folder) are ignored: without the record there is no fold. */
export async function saveDraft(path: string | null, migration: string, text: string): Promise<void> {
  if (path === null) return;
  try {
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify({ version: DRAFT_VERSION, migration, sha256: sha(text) } satisfies DraftRecord));
    await rename(temporary, path);
  } catch {
    // No record: the next change gets a migration of its own.
  }
}

/** Forget the draft of one output folder. Never throws. */
export async function dropDraft(path: string | null): Promise<void> {
  if (path !== null) await rm(path, { force: true }).catch(() => {});
}

/**
 * Forget every draft migration of the project at `root`: called by the
 * commands that apply migrations (`migrate`, `start`, `dev`), since a
 * migration some database has is no draft any more. Never throws.
 */
export async function endDraftMigrations(root: string): Promise<void> {
  const dir = join(root, 'node_modules', '.cache', 'bindery');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith(PREFIX)) await rm(join(dir, name), { force: true }).catch(() => {});
}
