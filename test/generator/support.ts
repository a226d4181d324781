/**
 * Helpers of the generator tests: throw-away project folders with a schema.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** The golden fixtures folder. */
export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** A temporary project folder; `remove()` deletes it. */
export interface TempProject {
  readonly root: string;
  /** Write (or overwrite) a file, path relative to the root. */
  write(path: string, text: string): Promise<void>;
  remove(): Promise<void>;
}

/**
 * A new project folder under the OS temp folder with `files` (path relative to
 * the root → text), e.g. `{ 'schema/notes.yaml': '…' }`.
 */
export async function tempProject(files: Readonly<Record<string, string>> = {}): Promise<TempProject> {
  const root = await mkdtemp(join(tmpdir(), 'bindery-gen-'));
  const write = async (path: string, text: string): Promise<void> => {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text, 'utf8');
  };
  for (const [path, text] of Object.entries(files)) await write(path, text);
  return { root, write, remove: () => rm(root, { recursive: true, force: true }) };
}

/** A temporary project whose `schema/` is a copy of fixture `name`'s schema folder. */
export async function fixtureProject(name: string): Promise<TempProject> {
  const project = await tempProject();
  await cp(join(FIXTURES, name, 'schema'), join(project.root, 'schema'), { recursive: true });
  return project;
}
