/**
 * Golden output: every fixture under `fixtures/<case>/schema/` generates
 * exactly `fixtures/<case>/expected/` (byte for byte), twice in a row the
 * same, and the expected output type-checks under the project's strict
 * settings. `UPDATE_GOLDEN=1 npx vitest run test/generator` refreshes the
 * expected trees.
 */
import { execFile } from 'node:child_process';
import { cp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.js';
import { readTree } from '../../generator/write/disk-tree.js';
import { strictTsconfig } from '../support/strict-tsconfig.js';
import { FIXTURES, REPO, fixtureProject, tempProject, type TempProject } from './support.js';

const run = promisify(execFile);
const cases = (await readdir(FIXTURES, { withFileTypes: true }))
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();
const projects: TempProject[] = [];
afterAll(async () => {
  for (const p of projects) await p.remove();
});

describe.each(cases)('generate | golden fixture %s', (name) => {
  const expectedDir = join(FIXTURES, name, 'expected');

  it('generates the expected tree byte for byte', async () => {
    const project = await fixtureProject(name);
    projects.push(project);
    const result = await generate({ root: project.root });
    expect(result.diagnostics).toEqual([]);
    if (process.env['UPDATE_GOLDEN'] === '1') {
      await rm(expectedDir, { recursive: true, force: true });
      await cp(join(project.root, 'generated'), expectedDir, { recursive: true });
    }
    const actual = await readTree(join(project.root, 'generated'));
    const expected = await readTree(expectedDir);
    expect([...actual.keys()]).toEqual([...expected.keys()]);
    for (const [path, text] of actual) expect({ path, text }).toEqual({ path, text: expected.get(path) });
  });

  it('gives identical bytes when run twice into fresh folders', async () => {
    const first = await fixtureProject(name);
    const second = await fixtureProject(name);
    projects.push(first, second);
    await generate({ root: first.root });
    await generate({ root: second.root });
    expect(await readTree(join(second.root, 'generated'))).toEqual(await readTree(join(first.root, 'generated')));
  });

  it('type-checks the expected output (and a handler of the wrong type fails)', async () => {
    const project = await tempProject({
      'package.json': '{ "type": "module", "private": true }\n',
      'tsconfig.json': strictTsconfig({
        compilerOptions: { noImplicitOverride: true },
        // The runtime's HTTP entry first: tsc merges `declare module 'bindery/http'`
        // into the interface only when the entry's TypeScript source is read
        // before the augmentation (an installed package's .d.ts has no such
        // order dependence).
        files: [join(REPO, 'runtime/http/index.ts')],
        include: ['generated', 'probe.ts'],
      }),
    });
    projects.push(project);
    await cp(expectedDir, join(project.root, 'generated'), { recursive: true });
    await symlink(join(REPO, 'node_modules'), join(project.root, 'node_modules'));
    await writeFile(join(project.root, 'probe.ts'), probe(name));
    const tsc = await run(join(REPO, 'node_modules/.bin/tsc'), ['--noEmit', '-p', project.root]).catch((e: { stdout: string }) => e);
    expect(tsc.stdout).toBe('');
  });
});

/** A file using the generated contracts: it must compile, and its `@ts-expect-error` lines must stay errors. */
function probe(name: string): string {
  if (name !== 'full') return 'export {};\n';
  return `import type { Handlers } from './generated/handlers.js';
import { routes, type RouteName, type RouteParams } from './generated/routes.js';

export const show: Handlers['documents.show'] = async (input, ctx) => {
  const row = await ctx.services.db.selectFrom('documents').selectAll().where('id', '=', input.id).executeTakeFirstOrThrow();
  return row;
};
// @ts-expect-error a handler must return the route's output row, not a string
export const wrong: Handlers['documents.show'] = () => 'not a document';
export const name: RouteName = routes[0].name;
export const params: RouteParams['documents.show'] = { id: 1 };

// The audit models: typed by the generated Database, reachable as ctx.services.models.
export const audited: Handlers['documents.show'] = async (input, ctx) => {
  const doc = await ctx.services.models.Document.update(input.id, { title: 'x' }, { where: (eb) => eb('owner_id', '=', 2) });
  const archived: number = await ctx.services.models.Document.query().where('status', '=', 'published').update({ status: 'archived' });
  await ctx.services.audit.record({ action: 'documents.probed', details: { archived } });
  // @ts-expect-error "nope" is not a column of documents
  await ctx.services.models.Document.update(input.id, { nope: 1 });
  // @ts-expect-error the key of users is a number
  await ctx.services.models.User.find('1');
  return doc!;
};
`;
}
