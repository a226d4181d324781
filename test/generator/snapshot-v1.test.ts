/**
 * Snapshots of version 1 (docs/generator.md "Migrations"): written before
 * bindery's column types, they hold PostgreSQL types, default SQL and the
 * partial-index condition. An existing project's next `generate` reads one,
 * compares it with the schema as the engine has it (`text` was both
 * `string` and `text`) and writes no migration — only the snapshot, in
 * version 2. The version-1 files here are the reference app's and the full
 * fixture's snapshots as bindery wrote them before (`snapshots-v1/`).
 */
import { cp, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../generator/diagnostics.js';
import { generate } from '../../generator/index.js';
import { FIXTURES, REPO, tempProject, type TempProject } from './support.js';

const V1 = join(import.meta.dirname, 'snapshots-v1');

let project: TempProject | undefined;
afterEach(async () => {
  await project?.remove();
  project = undefined;
});

/** A project with `schema` and `generated` copied from the given folders, its snapshot replaced by the version-1 file `v1`. */
async function existingProject(schema: string, generated: string, v1: string): Promise<TempProject> {
  const p = await tempProject();
  await cp(schema, join(p.root, 'schema'), { recursive: true });
  await cp(generated, join(p.root, 'generated'), { recursive: true });
  await p.write('generated/schema.snapshot.json', await readFile(join(V1, v1), 'utf8'));
  return p;
}

const cases = [
  { name: 'the reference app', schema: join(REPO, 'schema'), generated: join(REPO, 'generated'), v1: 'reference-app.json' },
  {
    name: 'the full fixture (every default: JSON, lists, random UUIDs, numbers)',
    schema: join(FIXTURES, 'full', 'schema'),
    generated: join(FIXTURES, 'full', 'expected'),
    v1: 'full-fixture.json',
  },
];

describe.each(cases)('snapshot version 1 | $name', ({ schema, generated, v1 }) => {
  it('regenerates with no new migration: only the snapshot is rewritten, in version 2, as a fresh project writes it', async () => {
    project = await existingProject(schema, generated, v1);
    const before = await readdir(join(project.root, 'generated', 'migrations'));
    expect(JSON.parse(await readFile(join(V1, v1), 'utf8')).version).toBe(1);

    const result = await generate({ root: project.root });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([]);
    expect(result.changed).toContain('generated/schema.snapshot.json');
    expect(result.changed.filter((path) => path.startsWith('generated/migrations/'))).toEqual([]);
    expect(await readdir(join(project.root, 'generated', 'migrations'))).toEqual(before);
    const written = await readFile(join(project.root, 'generated', 'schema.snapshot.json'), 'utf8');
    expect(written).toBe(await readFile(join(generated, 'schema.snapshot.json'), 'utf8'));
    expect(JSON.parse(written).version).toBe(2);
    expect((await generate({ root: project.root, check: true })).changed).toEqual([]);
  });

  it('rebuilds the same snapshot from the PostgreSQL migrations alone (--rebuild-snapshot)', async () => {
    project = await existingProject(schema, generated, v1);
    await rm(join(project.root, 'generated', 'schema.snapshot.json'));
    const result = await generate({ root: project.root, rebuildSnapshot: true });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([]);
    expect(result.changed.filter((path) => path.startsWith('generated/migrations/'))).toEqual([]);
    expect(await readFile(join(project.root, 'generated', 'schema.snapshot.json'), 'utf8')).toBe(
      await readFile(join(generated, 'schema.snapshot.json'), 'utf8'),
    );
  });
});

describe('snapshot version 1 | checked against its migrations', () => {
  it('reports a hand edit of a version-1 snapshot at the snapshot, in its own words, and a type bindery never wrote', async () => {
    const text = await readFile(join(V1, 'reference-app.json'), 'utf8');
    project = await existingProject(join(REPO, 'schema'), join(REPO, 'generated'), 'reference-app.json');
    await project.write('generated/schema.snapshot.json', text.replace('"varchar(200)"', '"varchar(500)"'));
    expect((await generate({ root: project.root, check: true })).diagnostics.map(formatDiagnostic)).toEqual([
      expect.stringMatching(
        /^generated\/schema\.snapshot\.json:\d+:\d+: tables\.notes\.columns\.title\.type: the snapshot has "string\(500\)", but the migrations up to 0007_add_users_locale build "string\(200\)": /,
      ),
    ]);
    await project.write('generated/schema.snapshot.json', text.replace('"varchar(200)"', '"inet"'));
    expect((await generate({ root: project.root, check: true })).diagnostics.map(formatDiagnostic)).toEqual([
      expect.stringContaining(
        'generated/schema.snapshot.json:1:1: the snapshot is not a bindery schema snapshot: the column notes.title ({"type":"inet","nullable":false}) is not one bindery wrote; restore it from version control, or rebuild it from the migrations with "bindery generate --rebuild-snapshot"',
      ),
    ]);
  });
});
