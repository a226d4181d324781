import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { coreSettings } from '../../../runtime/config/index.js';
import { renderEnvFile } from '../../../runtime/config/env-example.js';
import { loadEnvironment, setEnvFileValues } from '../../../runtime/config/env-file.js';

describe('.env | loading', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bindery-env-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads .env and lets real environment variables win', async () => {
    await writeFile(join(dir, '.env'), '# comment\nAPP_ENV=testing\nexport LOG_LEVEL="debug"\nAPP_URL=http://a.test # trailing comment\n');
    const env = await loadEnvironment(dir, { APP_ENV: 'production', OTHER: 'x' });
    expect(env.APP_ENV).toBe('production');
    expect(env.LOG_LEVEL).toBe('debug');
    expect(env.APP_URL).toBe('http://a.test');
    expect(env.OTHER).toBe('x');
  });

  it('works without a .env file', async () => {
    expect(await loadEnvironment(dir, { A: '1' })).toEqual({ A: '1' });
  });
});

describe('.env | editing', () => {
  it('replaces existing lines, keeps comments and order, appends new names', () => {
    const text = '# keys\nAPP_KEY=old\nexport APP_ENV=development\n\nLOG_LEVEL=info\n';
    expect(setEnvFileValues(text, { APP_KEY: 'base64:new+/=', APP_ENV: 'testing', APP_PREVIOUS_KEYS: 'a b' })).toBe(
      '# keys\nAPP_KEY=base64:new+/=\nexport APP_ENV=testing\n\nLOG_LEVEL=info\nAPP_PREVIOUS_KEYS="a b"\n',
    );
    expect(setEnvFileValues('', { A: '1' })).toBe('A=1\n');
  });
});

describe('.env.example | the committed example lists every core setting', () => {
  it('names each core setting', async () => {
    const example = await readFile(new URL('../../../.env.example', import.meta.url), 'utf8');
    for (const name of Object.keys(coreSettings.specs)) expect(example).toMatch(new RegExp(`^(# )?${name}=`, 'm'));
  });

  it('renders required settings uncommented and defaults commented out', () => {
    const text = renderEnvFile(coreSettings, { values: { APP_KEY: 'base64:x' } });
    expect(text).toContain('\nAPP_KEY=base64:x\n');
    expect(text).toContain('\n# APP_ENV=development\n');
    expect(text).toContain('\n# HTTP_ADDR=127.0.0.1:3000\n');
    expect(text).toContain('\n# HTTP_MAX_BODY=1MiB\n');
  });
});
