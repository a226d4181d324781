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
        files: [join(REPO, 'runtime/http/index.ts'), join(REPO, 'runtime/authorization/index.ts')],
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
import { definePolicy } from 'bindery/authorization';

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

// Policies: the route's target row is typed; definePolicy takes the code actions, typed by the row and user types.
export const target: Handlers['documents.show'] = (_input, _ctx, doc) => doc;
// @ts-expect-error the target of documents.show is a Document
export const wrongTarget: Handlers['documents.show'] = (_input, _ctx, doc: string) => ({ ...JSON.parse(doc) });
export const documentsPolicy = definePolicy('documents', {
  delete: {
    check: (user, doc) => user.admin || doc.owner_id === user.id,
    scope: (user, eb) => user.admin || eb('documents.owner_id', '=', user.id),
  },
  archive: (user, doc) => doc.status === 'published' && doc.owner_id === user.id,
});
// @ts-expect-error update has a rule in the schema: only code actions are written in TypeScript
export const notCode = definePolicy('documents', { delete: () => true, archive: () => true, update: () => true });
// @ts-expect-error "nope" is not a column of documents
export const badScope = definePolicy('documents', { delete: { scope: (_user, eb) => eb('documents.nope', '=', 1) }, archive: () => true });
export const asks: Handlers['documents.show'] = async (_input, ctx, doc) => {
  if (!(await ctx.can('documents.update', doc))) await ctx.authorize('documents.view', doc);
  const rows = await ctx.services.db.selectFrom('documents').selectAll().where(await ctx.scope('documents.view')).execute();
  // @ts-expect-error documents.nope is no policy action
  await ctx.can('documents.nope');
  return rows[0] ?? doc;
};
`;
}
