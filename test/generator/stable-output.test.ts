/**
 * Output that changes only when meaning changes (docs/generator.md, "Stable
 * output"): a comment line or a reordered key in the YAML leaves `--check`
 * green; one rule added to the first route changes only that route's lines
 * of `validators.ts`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.js';
import { fixtureProject, type TempProject } from './support.js';

let project: TempProject;
beforeEach(async () => {
  project = await fixtureProject('full');
  expect((await generate({ root: project.root })).diagnostics).toEqual([]);
});
afterEach(() => project.remove());

const read = (path: string): Promise<string> => readFile(join(project.root, path), 'utf8');
const edit = async (path: string, change: (text: string) => string): Promise<void> => {
  const before = await read(path);
  const after = change(before);
  expect(after).not.toBe(before);
  await project.write(path, after);
};
const upToDate = { ok: true, diagnostics: [], changed: [], diff: '', warnings: [] };

describe('generate | stable output', () => {
  it('a comment line above every route leaves --check green', async () => {
    await edit('schema/accounts.yaml', (t) =>
      t.replace('groups:', '# Groups of middleware.\n\ngroups:').replace('routes:', '# The routes.\n# Second line.\nroutes:'),
    );
    await edit('schema/documents.yaml', (t) => t.replace('routes:', '\n# Documents.\nroutes:'));
    expect(await generate({ root: project.root, check: true })).toEqual(upToDate);
  });

  it('reordering keys whose order carries no meaning leaves --check green', async () => {
    // A route's own keys, and the options of an input field's flow map.
    await edit('schema/documents.yaml', (t) =>
      t
        .replace(
          '    method: POST\n    path: /api/documents\n    group: api\n    summary: Create a document.\n',
          '    summary: Create a document.\n    group: api\n    path: /api/documents\n    method: POST\n',
        )
        .replace(
          'slug:       { type: string, json: slug, validate: [required, "max:100", alpha_dash] }',
          'slug:       { validate: [required, "max:100", alpha_dash], json: slug, type: string }',
        ),
    );
    // A resource's keys.
    await edit('schema/accounts.yaml', (t) =>
      t.replace('    table: users\n    description: An account.\n', '    description: An account.\n    table: users\n'),
    );
    expect(await generate({ root: project.root, check: true })).toEqual(upToDate);
  });

  it("one rule added to the first route changes only that route's validator lines", async () => {
    const before = await read('generated/validators.ts');
    await edit('schema/accounts.yaml', (t) =>
      t.replace(
        '      name:                  { type: string, validate: [required, "max:100"] }',
        '      name:                  { type: string, validate: [required, "max:100", alpha_dash] }',
      ),
    );
    const result = await generate({ root: project.root });
    expect(result.changed).toContain('generated/validators.ts');
    const after = await read('generated/validators.ts');
    // Cut the first route's block (its fingerprint line, its code up to its export) out of both: the rest is identical.
    const rest = (text: string): string => {
      const end = text.indexOf('export const accountRegister: CompiledValidator = accountRegister_validate;\n');
      const start = text.lastIndexOf('// fingerprint: ', text.indexOf('const accountRegister_schema'));
      expect(start).toBeGreaterThan(0);
      expect(end).toBeGreaterThan(start);
      return text.slice(0, start) + text.slice(end);
    };
    expect(rest(after)).toBe(rest(before));
    expect(before).not.toContain('accountRegister_pattern2');
    expect(after).toContain('const accountRegister_pattern2 = new RegExp("^[\\\\p{L}');
    expect(after).not.toBe(before);
  });
});
