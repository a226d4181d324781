/**
 * The API document served (docs/http.md "API docs"): `GET /openapi.json`
 * is the generated document and valid OpenAPI 3.1; `GET /docs` is the
 * reference page with its CSP and its script served by the app itself; both
 * off in production unless API_DOCS=true.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compileErrors, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app from '../../app/main.js';
import { createTestApp, type TestApp } from '../../runtime/app/index.js';
import { API_DOCS_CSP } from '../../runtime/http/api-docs-step.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';
import { REPO } from '../generator/support.js';

let database: TestDatabase;
let t: TestApp<any>;

beforeAll(async () => {
  database = await createTestDatabase('api_docs');
  t = await createTestApp(app, { databaseUrl: database.url, env: { ...referenceAppEnv } });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

describe('GET /openapi.json | the generated document', () => {
  it('is generated/openapi.json byte for byte, valid OpenAPI 3.1, with an ETag (304 on If-None-Match)', async () => {
    const res = await fetch(`${t.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const text = await res.text();
    expect(text).toBe(await readFile(join(REPO, 'generated/openapi.json'), 'utf8'));
    const result = await validate(JSON.parse(text));
    expect(result.valid ? 'valid' : compileErrors(result)).toBe('valid');
    const again = await fetch(`${t.url}/openapi.json`, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });
});

describe('GET /docs | the reference page', () => {
  it('is HTML with its CSP, the security headers, and a script served by the app (no other origin named)', async () => {
    const res = await fetch(`${t.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(API_DOCS_CSP);
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    const html = await res.text();
    expect(html).toContain('<redoc spec-url="/openapi.json"');
    expect(html).not.toMatch(/https?:\/\//);
    const script = /<script src="(\/docs\/redoc\.[0-9a-f]{16}\.js)"><\/script>/.exec(html)?.[1];
    expect(script).toBeDefined();
    const js = await fetch(`${t.url}${script}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await js.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });
});

describe('API_DOCS | off in production unless asked for', () => {
  const production = { ...referenceAppEnv, APP_ENV: 'production', APP_URL: 'https://bindery.example.test', MAIL_DRIVER: 'outbox' };

  it('APP_ENV=production: /openapi.json and /docs are 404', async () => {
    const p = await createTestApp(app, { databaseUrl: database.url, env: production, migrate: false });
    try {
      expect((await fetch(`${p.url}/openapi.json`)).status).toBe(404);
      expect((await fetch(`${p.url}/docs`)).status).toBe(404);
    } finally {
      await p.close();
    }
  });

  it('APP_ENV=production with API_DOCS=true serves both', async () => {
    const p = await createTestApp(app, { databaseUrl: database.url, env: { ...production, API_DOCS: 'true' }, migrate: false });
    try {
      expect((await fetch(`${p.url}/openapi.json`)).status).toBe(200);
      const docs = await fetch(`${p.url}/docs`);
      expect(docs.status).toBe(200);
      expect(docs.headers.get('strict-transport-security')).toMatch(/max-age=/);
    } finally {
      await p.close();
    }
  });

  it('API_DOCS=false in development serves neither', async () => {
    const p = await createTestApp(app, {
      databaseUrl: database.url,
      env: { ...referenceAppEnv, APP_ENV: 'development', API_DOCS: 'false' },
      migrate: false,
    });
    try {
      expect((await fetch(`${p.url}/docs`)).status).toBe(404);
    } finally {
      await p.close();
    }
  });
});
