/**
 * In headless Chromium against the real app: the API reference page
 * (`/docs`) renders the generated document with nothing fetched from
 * another origin and nothing refused by its CSP; and the generated client,
 * bundled for the browser, calls the API from a page of the app with the
 * session cookie and the page's CSRF token.
 *
 * Skipped, saying why, only when Chromium is not installed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { transform } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app from '../../app/main.js';
import type { Database } from '../../generated/types.js';
import { createTestApp, type TestApp } from '../../runtime/app/index.js';
import { launchChromium, type Browser } from '../support/chromium.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';
import { REPO } from '../generator/support.js';

describe('API docs and client | in headless Chromium', () => {
  let database: TestDatabase;
  let t: TestApp<Database>;
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('browser_api');
    t = await createTestApp<Database>(app, { databaseUrl: database.url, env: referenceAppEnv });
    browser = await launchChromium();
    page = browser.page;
    browser.context.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(String(e)));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await database?.drop();
  });

  it('/docs renders the reference of the generated document, offline and under its CSP', async () => {
    requests.length = 0;
    problems.length = 0;
    await page.goto(`${t.url}/docs`);
    // Redoc lists every operation by its summary once it has read /openapi.json.
    await page.getByText('Create a note from JSON or a form.').first().waitFor({ state: 'attached', timeout: 20_000 });
    await page.getByText('Soft-delete a document.').first().waitFor({ state: 'attached' });
    expect(await page.title()).toBe('bindery API reference');
    const foreign = requests.filter((u) => !u.startsWith(t.url) && !u.startsWith('data:') && !u.startsWith('blob:'));
    // Redoc's footer logo names Redocly's CDN; the CSP keeps the browser from fetching it.
    expect(foreign.filter((u) => !u.startsWith('https://cdn.redoc.ly/'))).toEqual([]);
    expect(requests).toContain(`${t.url}/openapi.json`);
    expect(problems.filter((p) => !p.includes('cdn.redoc.ly'))).toEqual([]);
  });

  it("the generated client from a page of the app: cookies and the page's X-CSRF-Token; without the token, 403", async () => {
    const source = await readFile(join(REPO, 'generated/client.ts'), 'utf8');
    const { code } = await transform(source, { loader: 'ts', format: 'iife', globalName: 'BinderyClient', target: 'es2022' });
    await page.goto(`${t.url}/notes/new`);
    // Evaluated through the DevTools protocol: the page's Content-Security-Policy refuses inline scripts.
    await page.evaluate(`${code}\n;globalThis.BinderyClient = BinderyClient;`);
    const outcome = await page.evaluate(async () => {
      const lib = (globalThis as any).BinderyClient;
      const api = lib.createClient({ baseUrl: '' });
      const note = await api.notes.create({ title: 'From the browser', tags: ['web'] });
      const listed = await api.notes.list({ limit: 10 });
      const refused = await lib
        .createClient({ baseUrl: '', csrfToken: () => undefined })
        .notes.delete({ id: note.id })
        .then(
          () => 0,
          (e: any) => e.status,
        );
      await api.notes.delete({ id: note.id });
      return { note, listed: listed.data.map((n: any) => n.id), refused };
    });
    expect(outcome.note).toMatchObject({ title: 'From the browser', tags: ['web'] });
    expect(outcome.listed).toContain(outcome.note.id);
    expect(outcome.refused).toBe(403);
    expect(await t.db.selectFrom('notes').select('id').where('id', '=', outcome.note.id).executeTakeFirst()).toBeUndefined();
    const [cookie] = await browser.context.cookies(t.url);
    expect(cookie?.name).toBe('app_session');
  });
});
