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
  afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

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
});
