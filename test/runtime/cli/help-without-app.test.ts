/**
 * `bindery --help` and `<command> --help` answer without loading the app
 * (docs/cli.md "Help without loading the app"): the app module here counts
 * its loads in `loads.txt`. The app's own commands appear in the full help
 * once a command has loaded the app, until a file of the app changes.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const fixture = fileURLToPath(new URL('./fixtures/command-app/main.ts', import.meta.url));
const APP_KEY = `base64:${Buffer.alloc(32, 7).toString('base64')}`;

describe('bindery CLI | help without loading the app', () => {
  let dir: string;
  const loads = () => (existsSync(join(dir, 'loads.txt')) ? readFileSync(join(dir, 'loads.txt'), 'utf8').length : 0);
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bindery-cli-help-'));
    mkdirSync(join(dir, 'app'));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(
      join(dir, 'app/main.ts'),
      `import { appendFileSync } from 'node:fs';\nappendFileSync(new URL('../loads.txt', import.meta.url), 'x');\nexport { default } from ${JSON.stringify(fixture)};\n`,
    );
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('lists the core commands and says how to list the app’s, without loading it', async () => {
    const r = await runCli(['--help'], { cwd: dir });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('bindery generate [--check]');
    expect(r.stdout).toContain('bindery migrate [--status] [--app <file>]');
    expect(r.stdout).toContain("The app's own commands");
    expect(r.stdout).toContain('`bindery --help --app app/main.ts` loads it now.');
    expect(r.stdout).not.toContain('bindery hello');
    const command = await runCli(['migrate', '--help'], { cwd: dir });
    expect(command.code).toBe(0);
    expect(command.stdout).toContain('$ bindery migrate');
    expect(loads()).toBe(0);
  });

  it("lists the app's commands once a command has loaded the app, until the app changes", async () => {
    expect(await runCli(['hello'], { cwd: dir, env: { APP_KEY } })).toMatchObject({ code: 0, stdout: 'hello from the app\n' });
    expect(loads()).toBe(1);
    const full = await runCli(['--help'], { cwd: dir });
    expect(full.code).toBe(0);
    expect(full.stdout).toContain('bindery hello [--app <file>]\n    Say hello.');
    expect(full.stdout).toContain('bindery fixture:whoami [--app <file>] [--shout]');
    expect(full.stdout).toContain('bindery generate [--check]');
    expect(full.stdout).not.toContain("The app's own commands");
    const one = await runCli(['fixture:whoami', '--help'], { cwd: dir });
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('Print the execution context and a value from the database.');
    expect(one.stdout).toContain('$ bindery fixture:whoami [--shout]');
    expect(loads()).toBe(1);

    appendFileSync(join(dir, 'app/main.ts'), '// edited\n');
    const stale = await runCli(['--help'], { cwd: dir });
    expect(stale.stdout).not.toContain('bindery hello');
    expect(stale.stdout).toContain("The app's own commands");
    expect(loads()).toBe(1);
  });

  it('still prints the help when the app module does not load', async () => {
    writeFileSync(join(dir, 'app/main.ts'), "throw new Error('the app was loaded');\n");
    const r = await runCli(['--help'], { cwd: dir });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('bindery serve');
  });
});
