/**
 * `bindery plugins:list` and `plugins:env` without plugins, and on the
 * reference project. The scratch-copy round trip is in
 * lifecycle.test.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
let empty: string;

beforeAll(async () => {
  empty = await mkdtemp(join(tmpdir(), 'bindery-no-plugins-'));
  await writeFile(join(empty, 'package.json'), JSON.stringify({ name: 'empty-app', private: true, type: 'module' }));
});
afterAll(async () => {
  await rm(empty, { recursive: true, force: true });
});

describe('bindery plugins:list / plugins:env | without plugins', () => {
  it('says "No plugins." and refuses an unknown plugin with exit 1', async () => {
    expect(await runCli(['plugins:list'], { cwd: empty })).toMatchObject({ code: 0, stdout: 'No plugins.\n', stderr: '' });
    expect(await runCli(['plugins:env'], { cwd: empty })).toMatchObject({ code: 0, stdout: 'No plugins.\n' });
    const unknown = await runCli(['plugins:env', 'mailprovider'], { cwd: empty });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      'Error: No plugin named "mailprovider" is in the plugin list (package.json bindery.plugins); the list is empty.\n(BINDERY_PLUGIN_NOT_FOUND; docs/errors.md#bindery_plugin_not_found says what to do)\n',
    );
    const remove = await runCli(['remove', 'mailprovider'], { cwd: empty });
    expect(remove.code).toBe(1);
    expect(remove.stderr).toContain('"mailprovider" is not in the plugin list');
  });
});

describe('bindery plugins:env | the reference project', () => {
  it("prints the mail-provider plugin's settings, required ones marked, without booting the app", async () => {
    const r = await runCli(['plugins:env', 'mailprovider'], { cwd: REPO, env: { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' } });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        '# mailprovider',
        '# MAILPROVIDER_WEBHOOK_USER (required): User name the mail provider sends with each webhook call (HTTP Basic). Allowed: any text.',
        'MAILPROVIDER_WEBHOOK_USER=',
        '# MAILPROVIDER_WEBHOOK_PASSWORD (required, secret): Password the mail provider sends with each webhook call (HTTP Basic); make it long and random. Allowed: any text.',
        'MAILPROVIDER_WEBHOOK_PASSWORD=',
        '# MAILPROVIDER_WEBHOOK_FAILURES (optional, default 10): Wrong webhook credentials allowed from one IP address in a minute; past it, the address gets 429 with Retry-After until the minute ends (right credentials included). Counted in the cache. Allowed: an integer from 1 to 10000.',
        'MAILPROVIDER_WEBHOOK_FAILURES=',
        '# MAILPROVIDER_REPLAY_WINDOW (optional, default 168h): How long a received record (its MessageID and event) is remembered: the same record again within it is answered 204 and not queued. Allowed: a duration with a unit, e.g. 30s, 2h, 1h30m, 250ms.',
        'MAILPROVIDER_REPLAY_WINDOW=',
        '',
      ].join('\n'),
    );
  });
});
