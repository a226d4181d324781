import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliInProcess } from './run-cli.js';

describe('bindery CLI | usage and exit codes', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bindery-cli-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('no command: prints the command list, exit 2', async () => {
    const r = await runCli([], { cwd: dir });
    expect(r.code).toBe(2);
    for (const c of ['generate', 'migrate', 'serve', 'start', 'key:generate']) expect(r.stderr).toContain(`bindery ${c}`);
  });

  it('an unknown command or option is a usage error, exit 2', async () => {
    const unknown = await runCli(['deploy'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Command not found');
    const option = await runCli(['generate', '--force'], { cwd: dir });
    expect(option.code).toBe(2);
    expect(option.stderr).toContain('Unsupported option name ("--force")');
  });

  it('a mistyped command names the nearest command instead of listing them all, exit 2', async () => {
    const typo = await runCli(['genrate'], { cwd: dir });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^Command not found: "genrate" is not a bindery command\. Did you mean `bindery generate`\?\n/);
    expect(typo.stderr).not.toContain('bindery migrate');
    const prefix = await runCliInProcess(['plugins'], { cwd: dir });
    expect(prefix.stderr).toContain('Did you mean `bindery plugins:env` or `bindery plugins:list`?');
    const far = await runCliInProcess(['deploy'], { cwd: dir });
    expect(far.stderr).not.toContain('Did you mean');
    expect(far.stderr).toContain('`bindery --help` lists the commands.');
  });

  it('the help names what an option takes (--app <file>, --concurrency <n>), never #0', async () => {
    const migrate = await runCliInProcess(['migrate', '--help'], { cwd: dir });
    expect(migrate.stdout).toMatch(/\n {2}--app <file> {4}The app module/);
    const worker = await runCliInProcess(['worker', '--help'], { cwd: dir });
    expect(worker.stdout).toMatch(/\n {2}--concurrency <n> {4}Jobs run at once/);
    const full = await runCliInProcess(['--help'], { cwd: dir });
    expect(full.stdout).toContain('bindery build [--entry <file>] [--out-dir <dir>] [--declaration] [--copy <dir>]');
    expect(full.stdout).not.toContain('#0');
    const bad = await runCliInProcess(['migrate', '--bogus'], { cwd: dir });
    expect(bad.stderr).toContain('$ bindery migrate [--status] [--app <file>]');
  });

  it('--help of a command prints its usage without colours when piped, exit 0', async () => {
    const r = await runCli(['generate', '--help'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('$ bindery generate\n');
    expect(r.stdout).toMatch(/--check {2,}Write nothing; exit 1 and print the diff when generated\/ is stale\./);
    expect(r.stdout).not.toContain('\u001b[');
  });

  it('a command needing the app says where it looked, exit 1, no stack', async () => {
    const r = await runCli(['serve'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'Error: No app module at app/main.ts: create it with "export default defineApp({ … })", or pass --app <file>.\n(BINDERY_APP_INVALID; docs/errors.md#bindery_app_invalid says what to do)\n',
    );
  });
});
