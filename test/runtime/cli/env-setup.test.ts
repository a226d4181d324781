import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureEnvFile } from '../../../runtime/cli/env-setup.js';
import { formatCliError } from '../../../runtime/cli/format-error.js';
import { decodeAppKey } from '../../../runtime/config/index.js';
import { SettingsError } from '../../../runtime/config/index.js';

describe('ensureEnvFile | the .env that npm start creates', () => {
  let dir: string;
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'bindery-envsetup-')); });
  afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

  it('copies .env.example, filling APP_KEY, mode 0600', async () => {
    await writeFile(join(dir, '.env.example'), '# example\nAPP_KEY=\n# LOG_LEVEL=info\nAPP_URL=http://notes.test\n');
    expect(await ensureEnvFile(dir)).toBe('.env.example');
    const text = await readFile(join(dir, '.env'), 'utf8');
    const env = parseEnv(text) as Record<string, string>;
    expect(decodeAppKey(env.APP_KEY!).ok).toBe(true);
    expect(text).toBe(`# example\nAPP_KEY=${env.APP_KEY}\n# LOG_LEVEL=info\nAPP_URL=http://notes.test\n`);
    expect((await stat(join(dir, '.env'))).mode & 0o777).toBe(0o600);
  });

  it('uses the documented defaults without an example, and never touches an existing .env', async () => {
    expect(await ensureEnvFile(dir)).toBe('defaults');
    const first = await readFile(join(dir, '.env'), 'utf8');
    expect(first).toMatch(/^# bindery settings/);
    expect(await ensureEnvFile(dir)).toBeUndefined();
    expect(await readFile(join(dir, '.env'), 'utf8')).toBe(first);
  });
});

describe('formatCliError | readable messages, stacks only in debug', () => {
  it('coded errors: message and code, no stack', () => {
    const text = formatCliError(new SettingsError([{ names: ['APP_ENV'], message: 'APP_ENV="x": expected one of development, testing, production' }]), false);
    expect(text).toBe([
      'Error: 1 setting is invalid; the boot stops:',
      '  - APP_ENV="x": expected one of development, testing, production',
      'Set them in the environment or in .env (docs/settings.md lists every setting).',
      '(BINDERY_SETTING_INVALID; docs/errors.md says what to do)',
      '',
    ].join('\n'));
  });

  it('other errors: message and how to see the stack; debug shows stack and causes', () => {
    expect(formatCliError(new Error('boom'), false)).toBe('Error: boom\nSet APP_DEBUG=true to see the stack trace.\n');
    const debug = formatCliError(new Error('outer', { cause: new Error('inner') }), true);
    expect(debug).toMatch(/^Error: outer\n\nError: outer\n {4}at /);
    expect(debug).toContain('Caused by: Error: inner');
  });
});
