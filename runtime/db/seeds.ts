/**
 * Seeds (docs/database.md "Seeds"): `bindery db:seed` runs the modules of
 * `app/seeds/` — each default-exports a {@link Seed} — in file-name order,
 * all in one transaction: if one throws, nothing any of them wrote stays.
 */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Transaction } from 'kysely';
import { CodedError } from '../errors/coded-error.js';
import { errorMessage } from '../errors/codes.js';
import type { AnyKysely, UntypedTables } from './any-kysely.js';

/** The folder of the seed modules, relative to the project root. */
export const SEEDS_DIR = 'app/seeds';

/** What a seed receives. */
export interface SeedContext<DB> {
  /** The transaction every seed of the run writes through (create factories on it: `createFactories(db)`). */
  readonly db: Transaction<DB>;
  /** Write a line of progress text (a newline is added). */
  readonly log: (text: string) => void;
}

/** A seed module's default export. `DB` is the generated `Database`. */
export type Seed<DB = UntypedTables> = (ctx: SeedContext<DB>) => Promise<void> | void;

/** A seed failed, or a seed module could not be loaded (`BINDERY_SEED_FAILED`); nothing was written. */
export class SeedFailedError extends CodedError {
  /** The seed file, relative to the project root. */
  readonly file: string;
  constructor(file: string, reason: string, options?: { cause?: unknown }) {
    super('BINDERY_SEED_FAILED', errorMessage('BINDERY_SEED_FAILED', { file, reason }), options);
    this.file = file;
  }
}

/** The seed files of `dir`: `.ts`, `.mts`, `.js`, `.mjs` (not `.d.ts`), sorted by name; `[]` when the folder is missing. */
export async function seedFiles(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names.filter((n) => /\.(ts|mts|js|mjs)$/.test(n) && !/\.d\.m?ts$/.test(n)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Load every seed of `<root>/app/seeds/` and run them in name order in one
 * transaction of `db`.
 * @param out progress text: one line per seed.
 * @returns the seed files run, relative to `root`.
 * @throws {SeedFailedError} when a module does not load, has no function as its default export, or throws (then the transaction is rolled back).
 */
export async function runSeeds(db: AnyKysely, root: string, out: (text: string) => void): Promise<string[]> {
  const dir = join(root, SEEDS_DIR);
  const files = (await seedFiles(dir)).map((name) => join(dir, name));
  const seeds: [string, Seed][] = [];
  for (const file of files) {
    const shown = relative(root, file);
    let mod: { default?: unknown };
    try {
      mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
    } catch (error) {
      throw new SeedFailedError(shown, `it cannot be loaded (${(error as Error).message})`, { cause: error });
    }
    if (typeof mod.default !== 'function')
      throw new SeedFailedError(
        shown,
        `its default export must be a function ({ db, log }) => …; it is ${mod.default === undefined ? 'missing' : typeof mod.default}`,
      );
    seeds.push([shown, mod.default as Seed]);
  }
  await db.transaction().execute(async (trx) => {
    for (const [shown, seed] of seeds) {
      const started = Date.now();
      try {
        await seed({ db: trx, log: (text) => out(`  ${text}\n`) });
      } catch (error) {
        throw new SeedFailedError(shown, (error as Error).message ?? String(error), { cause: error });
      }
      out(`Seeded ${shown} (${Date.now() - started} ms)\n`);
    }
  });
  return seeds.map(([shown]) => shown);
}
