import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeAppKey } from '../../../runtime/config/app-key.js';
import { runCli } from './run-cli.js';

const readEnv = async (dir: string) => parseEnv(await readFile(join(dir, '.env'), 'utf8')) as Record<string, string>;

describe('bindery key:generate | writes APP_KEY to .env', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bindery-key-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('--show prints a valid key and writes nothing', async () => {
    const r = await runCli(['key:generate', '--show'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^base64:[A-Za-z0-9+/]{43}=\n$/);
    expect(decodeAppKey(r.stdout.trim()).ok).toBe(true);
    await expect(stat(join(dir, '.env'))).rejects.toThrow();
  });

  it('creates .env (mode 0600) with a valid key and every core setting documented', async () => {
    const r = await runCli(['key:generate'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Created .env with fresh values for APP_KEY.\n');
    const env = await readEnv(dir);
    expect(decodeAppKey(env.APP_KEY!).ok).toBe(true);
    const text = await readFile(join(dir, '.env'), 'utf8');
    expect(text).toContain('# HTTP_ADDR=127.0.0.1:3000');
    expect((await stat(join(dir, '.env'))).mode & 0o777).toBe(0o600);
  });

  it('replaces the key and moves the old one to the front of APP_PREVIOUS_KEYS, keeping other lines', async () => {
    await runCli(['key:generate'], { cwd: dir });
    const first = (await readEnv(dir)).APP_KEY!;
    await writeFile(join(dir, '.env'), `${await readFile(join(dir, '.env'), 'utf8')}LOG_LEVEL=debug\n`);
    const second = await runCli(['key:generate'], { cwd: dir });
    expect(second.stdout).toBe('APP_KEY set in .env. The previous key moved to APP_PREVIOUS_KEYS, so what it encrypted still decrypts.\n');
    const env2 = await readEnv(dir);
    expect(env2.APP_KEY).not.toBe(first);
    expect(decodeAppKey(env2.APP_KEY!).ok).toBe(true);
    expect(env2.APP_PREVIOUS_KEYS).toBe(first);
    expect(env2.LOG_LEVEL).toBe('debug');
    await runCli(['key:generate'], { cwd: dir });
    const env3 = await readEnv(dir);
    expect(env3.APP_PREVIOUS_KEYS).toBe(`${env2.APP_KEY},${first}`);
  });

  it('drops an invalid old value instead of moving it', async () => {
    await writeFile(join(dir, '.env'), 'APP_KEY=changeme\n');
    const r = await runCli(['key:generate'], { cwd: dir });
    expect(r.stdout).toBe('APP_KEY set in .env. The old value was not a valid key and was dropped.\n');
    const env = await readEnv(dir);
    expect(env.APP_PREVIOUS_KEYS).toBeUndefined();
    expect(decodeAppKey(env.APP_KEY!).ok).toBe(true);
  });

  it('warns when the environment also sets APP_KEY', async () => {
    const r = await runCli(['key:generate'], { cwd: dir, env: { APP_KEY: 'base64:x' } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('Note: APP_KEY is also set in the environment, which wins over .env.\n');
  });
});
