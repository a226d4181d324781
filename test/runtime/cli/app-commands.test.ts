import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { runCli } from './run-cli.js';

const root = fileURLToPath(new URL('./fixtures/command-app/', import.meta.url));
const APP_KEY = `base64:${Buffer.alloc(32, 7).toString('base64')}`;

describe('bindery CLI | commands of the app and its setup steps', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('cli');
  });
  afterAll(async () => {
    await database.drop();
  });

  it("runs a setup step's command on the booted app, inside a command execution context", async () => {
    const r = await runCli(['fixture:whoami', '--shout', '--app', 'main.ts'], {
      cwd: root,
      env: { DATABASE_URL: database.url, APP_KEY, LOG_LEVEL: 'silent' },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('VIA=COMMAND:FIXTURE:WHOAMI ACTOR=SYSTEM ANSWER=42 MARKER=SET-UP\n');
  });

  it("runs the app's own command and lists both in the help", async () => {
    const hello = await runCli(['hello', '--app', 'main.ts'], { cwd: root, env: { APP_KEY } });
    expect(hello).toMatchObject({ code: 0, stdout: 'hello from the app\n' });
    const help = await runCli(['--help', '--app', 'main.ts'], { cwd: root });
    expect(help.stdout).toContain('bindery fixture:whoami');
    expect(help.stdout).toContain('bindery hello');
  });

  it('an unknown command is still a usage error (exit 2)', async () => {
    const r = await runCli(['nope', '--app', 'main.ts'], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Command not found');
  });
});
