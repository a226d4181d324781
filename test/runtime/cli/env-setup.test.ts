import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureEnvFile } from '../../../runtime/cli/env-setup.js';
import { formatCliError } from '../../../runtime/app/format-error.js';
import { decodeAppKey } from '../../../runtime/config/app-key.js';
import { SettingsError } from '../../../runtime/config/index.js';

describe('ensureEnvFile | the .env that npm start creates', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bindery-envsetup-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('copies .env.example, filling APP_KEY, mode 0600', async () => {
    await writeFile(join(dir, '.env.example'), '# example\nAPP_KEY=\n# LOG_LEVEL=info\nAPP_URL=http://notes.test\n');
    expect(await ensureEnvFile(dir)).toEqual({ from: '.env.example', generated: ['APP_KEY'] });
    const text = await readFile(join(dir, '.env'), 'utf8');
    const env = parseEnv(text) as Record<string, string>;
    expect(decodeAppKey(env.APP_KEY!).ok).toBe(true);
    expect(text).toBe(`# example\nAPP_KEY=${env.APP_KEY}\n# LOG_LEVEL=info\nAPP_URL=http://notes.test\n`);
    expect((await stat(join(dir, '.env'))).mode & 0o777).toBe(0o600);
  });

  it('uses the documented defaults without an example, and never touches an existing .env', async () => {
    expect(await ensureEnvFile(dir)).toEqual({ from: 'defaults', generated: ['APP_KEY'] });
    const first = await readFile(join(dir, '.env'), 'utf8');
    expect(first).toMatch(/^# bindery settings/);
    expect(await ensureEnvFile(dir)).toBeUndefined();
    expect(await readFile(join(dir, '.env'), 'utf8')).toBe(first);
  });
});

describe("ensureEnvFile | fresh development values for the plugins' required settings", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bindery-envsetup-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('fills every empty setting that can make a value, and leaves set ones alone', async () => {
    await writeFile(join(dir, '.env.example'), 'APP_KEY=\nMAILPROVIDER_WEBHOOK_USER=\nMAILPROVIDER_WEBHOOK_PASSWORD=given\n');
    const { mailproviderSettings } = await import('../../../plugins/mailprovider/src/settings.js');
    const { coreSettings } = await import('../../../runtime/config/index.js');
    const created = await ensureEnvFile(dir, { definitions: [coreSettings, mailproviderSettings] });
    expect(created).toEqual({ from: '.env.example', generated: ['APP_KEY', 'MAILPROVIDER_WEBHOOK_USER'] });
    const env = parseEnv(await readFile(join(dir, '.env'), 'utf8')) as Record<string, string>;
    expect(env.MAILPROVIDER_WEBHOOK_USER).toBe('mailprovider');
    expect(env.MAILPROVIDER_WEBHOOK_PASSWORD).toBe('given');
  });

  it('reads the plugin list of the project (the reference app) without booting it', async () => {
    const root = new URL('../../../', import.meta.url).pathname;
    const { projectSettings } = await import('../../../runtime/cli/env-setup.js');
    const names = (await projectSettings(root)).flatMap((d) => Object.keys(d.specs));
    expect(names).toContain('MAILPROVIDER_WEBHOOK_PASSWORD');
    expect(names).toContain('APP_KEY');
  });
});

describe('formatCliError | readable messages, stacks only in debug', () => {
  it('coded errors: message and code, no stack', () => {
    const text = formatCliError(
      new SettingsError([{ names: ['APP_ENV'], message: 'APP_ENV="x": expected one of development, testing, production' }]),
      false,
    );
    expect(text).toBe(
      [
        'Error: 1 setting is invalid; the boot stops:',
        '  - APP_ENV="x": expected one of development, testing, production',
        'Set them in the environment or in .env (docs/settings.md lists every setting).',
        '(BINDERY_SETTING_INVALID; docs/errors.md#bindery_setting_invalid says what to do)',
        '',
      ].join('\n'),
    );
  });

  it('other errors: message and how to see the stack; debug shows stack and causes', () => {
    expect(formatCliError(new Error('boom'), false)).toBe('Error: boom\nSet APP_DEBUG=true to see the stack trace.\n');
    const debug = formatCliError(new Error('outer', { cause: new Error('inner') }), true);
    expect(debug).toMatch(/^Error: outer\n\nError: outer\n {4}at /);
    expect(debug).toContain('Caused by: Error: inner');
  });
});
