/**
 * Static assets over real HTTP (docs/spec.md 4.6; docs/pages.md): hashed once
 * at startup, `?v=<hash>` URLs in pages, the current hash cacheable for a
 * year (immutable), any other URL revalidated (no-cache, ETag, 304).
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../runtime/app/index.js';
import { loadAssets } from '../../../runtime/assets/asset-manifest.js';
import { assets } from '../../../runtime/assets/index.js';
import { page } from '../../../runtime/results/result.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { route } from '../http/support/routes.js';

const CSS = 'body { color: teal; }\n';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"/>';
const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

let root: string;
let database: TestDatabase;
let t: TestApp;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bindery-assets-'));
  await mkdir(join(root, 'app/assets/img'), { recursive: true });
  await mkdir(join(root, 'app/views'), { recursive: true });
  await writeFile(join(root, 'app/assets/app.css'), CSS);
  await writeFile(join(root, 'app/assets/img/logo.svg'), SVG);
  await writeFile(join(root, 'app/assets/.gitkeep'), '');
  await writeFile(
    join(root, 'app/views/home.eta'),
    '<link rel="stylesheet" href="<%= it.asset(\'app.css\') %>"><img src="<%= it.asset(\'img/logo.svg\') %>">',
  );
  await writeFile(join(root, 'app/views/missing.eta'), "<p>before</p><%= it.asset('nope.css') %>");
  const app = defineApp({
    name: 'assetsapp',
    root,
    routes: [route({ name: 'home', path: '/', result: 'page' }), route({ name: 'missing', path: '/missing', result: 'page' })],
    handlers: { home: () => page('home'), missing: () => page('missing') },
    viewsDir: 'app/views',
    migrations: [],
    setup: [assets()],
  });
  database = await createTestDatabase('assets');
  t = await createTestApp(app, { databaseUrl: database.url });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('Assets | URLs in pages', () => {
  it('it.asset(path) gives /assets/<path>?v=<first 16 hex of SHA-256>', async () => {
    const html = await (await fetch(`${t.url}/`)).text();
    expect(html).toBe(`<link rel="stylesheet" href="/assets/app.css?v=${hash(CSS)}"><img src="/assets/img/logo.svg?v=${hash(SVG)}">`);
  });

  it('an unknown asset is a render error: an error page, never half a page', async () => {
    const res = await fetch(`${t.url}/missing`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('before');
  });
});

describe('Assets | caching', () => {
  it('the current hash: 200, immutable for a year, ETag, the right content type', async () => {
    const res = await fetch(`${t.url}/assets/app.css?v=${hash(CSS)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('etag')).toBe(`"${hash(CSS)}"`);
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(await res.text()).toBe(CSS);
    const svg = await fetch(`${t.url}/assets/img/logo.svg?v=${hash(SVG)}`);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
  });

  it('no v, or another hash: no-cache with the ETag', async () => {
    for (const query of ['', '?v=0123456789abcdef', '?v=']) {
      const res = await fetch(`${t.url}/assets/app.css${query}`);
      expect(res.status, query).toBe(200);
      expect(res.headers.get('cache-control'), query).toBe('no-cache');
      expect(res.headers.get('etag'), query).toBe(`"${hash(CSS)}"`);
      expect(await res.text()).toBe(CSS);
    }
  });

  it('revalidation: If-None-Match with the ETag gives 304 without a body; another tag gives 200', async () => {
    const res = await fetch(`${t.url}/assets/app.css`, { headers: { 'if-none-match': `W/"x", "${hash(CSS)}"` } });
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe(`"${hash(CSS)}"`);
    expect(await res.text()).toBe('');
    expect((await fetch(`${t.url}/assets/app.css`, { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  it('HEAD answers the headers without the body', async () => {
    const res = await fetch(`${t.url}/assets/app.css?v=${hash(CSS)}`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe('');
  });

  it('hidden files and unknown paths are 404', async () => {
    expect((await fetch(`${t.url}/assets/.gitkeep`)).status).toBe(404);
    expect((await fetch(`${t.url}/assets/nope.css`)).status).toBe(404);
  });

  it('is hashed once at startup: a file changed on disk is served as it was until restart', async () => {
    await writeFile(join(root, 'app/assets/app.css'), 'body { color: red; }\n');
    const res = await fetch(`${t.url}/assets/app.css?v=${hash(CSS)}`);
    expect(await res.text()).toBe(CSS);
    await writeFile(join(root, 'app/assets/app.css'), CSS);
  });
});

describe('Assets | loading', () => {
  it('a folder that does not exist holds no assets; a file name a URL cannot carry stops the boot', async () => {
    expect((await loadAssets(join(root, 'nowhere'))).assets).toEqual([]);
    const bad = await mkdtemp(join(tmpdir(), 'bindery-assets-bad-'));
    try {
      await writeFile(join(bad, 'my file.css'), '');
      await expect(loadAssets(bad)).rejects.toMatchObject({ code: 'BINDERY_ASSETS_INVALID' });
    } finally {
      await rm(bad, { recursive: true, force: true });
    }
  });
});
