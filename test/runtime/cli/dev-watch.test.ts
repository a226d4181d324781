/**
 * The watch of `bindery dev` (docs/cli.md "dev — the development loop"): a
 * plain write, a file replaced by a rename (an editor's atomic save), a
 * `sed -i` edit and a file in a new folder each make one burst naming the
 * file; temporary and swap files are left out.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchTree, type ChangeBatch, type TreeWatch } from '../../../runtime/cli/dev/watch-tree.js';

const root = await mkdtemp(join(tmpdir(), 'bindery-dev-watch-'));
const batches: ChangeBatch[] = [];
let watch: TreeWatch;

beforeAll(async () => {
  await mkdir(join(root, 'schema'));
  await mkdir(join(root, 'app/views'), { recursive: true });
  await writeFile(join(root, 'schema/notes.yaml'), 'resources: {}\n');
  await writeFile(join(root, 'app/handlers.ts'), 'export const handlers = {};\n');
  await writeFile(join(root, 'app/views/home.eta'), '<p>home</p>\n');
  watch = watchTree({
    root,
    dirs: ['schema', 'app'],
    files: ['.env'],
    onChange: (batch) => {
      batches.push(batch);
    },
  });
  await watch.ready;
});
afterAll(async () => {
  watch.close();
  await rm(root, { recursive: true, force: true });
});

/** Run `change`, then wait for the next burst and return it. */
async function burstAfter(change: () => Promise<unknown> | unknown): Promise<ChangeBatch> {
  const before = batches.length;
  await change();
  const deadline = Date.now() + 5000;
  while (batches.length === before) {
    if (Date.now() > deadline) throw new Error('no burst within 5 s');
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 200)); // a second burst for the same change would show here
  expect(batches.length, `bursts: ${JSON.stringify(batches.slice(before))}`).toBe(before + 1);
  return batches[before]!;
}

describe('watchTree', () => {
  it('sees a plain write', async () => {
    expect(await burstAfter(() => writeFile(join(root, 'app/handlers.ts'), 'export const handlers = { a: 1 };\n'))).toEqual([
      'app/handlers.ts',
    ]);
  });

  it('sees a file replaced by a rename (write a temporary file, rename it over)', async () => {
    const batch = await burstAfter(async () => {
      await writeFile(join(root, 'schema/.notes.yaml.tmp-1234'), 'resources: { A: {} }\n');
      await rename(join(root, 'schema/.notes.yaml.tmp-1234'), join(root, 'schema/notes.yaml'));
    });
    expect(batch).toEqual(['schema/notes.yaml']);
  });

  it('sees sed -i, again and again (each edit replaces the file)', async () => {
    for (const n of [1, 2, 3]) {
      expect(await burstAfter(() => execFileSync('sed', ['-i', `s/home[0-9]*/home${n}/`, join(root, 'app/views/home.eta')]))).toEqual([
        'app/views/home.eta',
      ]);
    }
    expect(await burstAfter(() => execFileSync('sed', ['-i', 's/A/B/', join(root, 'schema/notes.yaml')]))).toEqual(['schema/notes.yaml']);
  });

  it('sees a file in a new folder, and .env appearing', async () => {
    expect(
      await burstAfter(async () => {
        await mkdir(join(root, 'app/handlers'));
        await writeFile(join(root, 'app/handlers/notes.ts'), 'export {};\n');
      }),
    ).toEqual(['app/handlers/notes.ts']);
    expect(await burstAfter(() => writeFile(join(root, '.env'), 'APP_ENV=development\n'))).toEqual(['.env']);
  });

  it('leaves out swap and backup files', async () => {
    const batch = await burstAfter(async () => {
      await writeFile(join(root, 'app/.handlers.ts.swp'), 'x');
      await writeFile(join(root, 'app/handlers.ts~'), 'x');
      await writeFile(join(root, 'app/handlers.ts'), 'export const handlers = { b: 2 };\n');
    });
    expect(batch).toEqual(['app/handlers.ts']);
  });
});
