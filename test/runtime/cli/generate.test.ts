import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

describe('bindery generate | exit codes', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bindery-generate-'));
    await cp(new URL('../../../schema', import.meta.url), join(dir, 'schema'), { recursive: true });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('--check on a project never generated: prints the diff, exit 1', async () => {
    const r = await runCli(['generate', '--check'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('+++ b/generated/routes.ts');
    expect(r.stderr).toMatch(/^generated\/ is stale: \d+ files would change \(.*generated\/routes\.ts.*\)\. Run "bindery generate"\.\n$/);
  });

  it('generate writes generated/, exit 0; then --check says it is up to date, exit 0', async () => {
    const gen = await runCli(['generate'], { cwd: dir });
    expect(gen.code).toBe(0);
    expect(gen.stdout).toMatch(/^Generated \d+ files: .*generated\/routes\.ts/);
    const check = await runCli(['generate', '--check'], { cwd: dir });
    expect(check).toEqual({ code: 0, stdout: 'generated/ is up to date.\n', stderr: '' });
  });

  it('--check after a schema edit: exit 1 and the diff names the change', async () => {
    const file = join(dir, 'schema', 'notes.yaml');
    const original = await readFile(file, 'utf8');
    await writeFile(file, original.replace('summary: One note.', 'summary: One single note.'));
    try {
      const r = await runCli(['generate', '--check'], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('One single note.');
    } finally {
      await writeFile(file, original);
    }
  });

  it('a schema error prints file:line:column, changes nothing, exit 1', async () => {
    const file = join(dir, 'schema', 'notes.yaml');
    const original = await readFile(file, 'utf8');
    const routesBefore = await readFile(join(dir, 'generated', 'routes.ts'), 'utf8');
    await writeFile(file, original.replace('validate: [required, "max:200"]', 'validate: [required, "max:200", distinc]'));
    try {
      const r = await runCli(['generate'], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^schema\/notes\.yaml:\d+:\d+: .*distinc/m);
      expect(r.stderr).toMatch(/\d+ schema errors?; nothing under generated\/ changed\.\n$/);
      expect(await readFile(join(dir, 'generated', 'routes.ts'), 'utf8')).toBe(routesBefore);
    } finally {
      await writeFile(file, original);
    }
  });

  it('--allow-destructive prints what the migration loses; --rebuild-snapshot goes back after removing it', async () => {
    const file = join(dir, 'schema', 'notes.yaml');
    const original = await readFile(file, 'utf8');
    const snapshot = await readFile(join(dir, 'generated', 'schema.snapshot.json'), 'utf8');
    await writeFile(file, original.replace('title:      { type: string, max: 200 }', 'title:      { type: string, max: 20 }'));
    try {
      const refused = await runCli(['generate'], { cwd: dir });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('changing column notes.title from varchar(200) to varchar(20) may lose or reject values');
      const r = await runCli(['generate', '--allow-destructive'], { cwd: dir });
      expect(r.code).toBe(0);
      const migration = /generated\/migrations\/(\d{4}_alter_notes_title\.sql)/.exec(r.stdout)?.[1];
      expect(migration).toBeDefined();
      expect(r.stderr).toBe(
        `Warning: generated/migrations/${migration} is destructive; it\n` +
          '  - changes notes.title from varchar(200) to varchar(20); migrate stops with an error and changes nothing if a value would not survive the change unchanged\n',
      );

      await rm(join(dir, 'generated', 'migrations', migration!));
      await writeFile(file, original);
      const stuck = await runCli(['generate'], { cwd: dir });
      expect(stuck.code).toBe(1);
      expect(stuck.stderr).toContain(`but generated/migrations/${migration} is missing`);
      const rebuilt = await runCli(['generate', '--rebuild-snapshot'], { cwd: dir });
      expect(rebuilt).toMatchObject({ code: 0, stderr: '' });
      expect(await readFile(join(dir, 'generated', 'schema.snapshot.json'), 'utf8')).toBe(snapshot);
    } finally {
      await writeFile(file, original);
    }
  });
});
