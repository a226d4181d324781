/**
 * The notes form in a real browser ("Tests that must exist"):
 * headless Chromium (Debian's `chromium`, installed by
 * scripts/ensure-chromium.mjs) driven by playwright-core against the real
 * app on real PostgreSQL. Submit with errors, see the errors and the values
 * typed, correct, see the created note.
 *
 * Skipped, saying why, only when Chromium is not installed.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import notesApp from '../../app/main.js';
import type { Database } from '../../generated/types.js';
import { createTestApp, type TestApp } from '../../runtime/app/index.js';
import { launchChromium, type Browser } from '../support/chromium.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';

describe('notes form | in headless Chromium', () => {
  let database: TestDatabase;
  let t: TestApp<Database>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    database = await createTestDatabase('browser');
    t = await createTestApp<Database>(notesApp, { databaseUrl: database.url, env: referenceAppEnv });
    browser = await launchChromium();
    ({ context, page } = browser);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await database?.drop();
  });

  it('submit with errors, see the errors and the values typed, correct it, see the created note', async () => {
    await page.goto(`${t.url}/notes/new`);
    expect(await page.title()).toBe('New note');
    await page.fill('#title', 'Groceries');
    await page.fill('#body', 'milk & eggs');
    const tags = page.locator('input[name="tags"]');
    await tags.nth(0).fill('food');
    await tags.nth(1).fill('not ok');
    await Promise.all([page.waitForURL(`${t.url}/notes/new`), page.click('button[type="submit"]')]);

    // Back on the form: the error beside the field, the values as typed.
    expect(await page.textContent('#tags-error')).toBe('The tags.1 field must only contain letters, numbers, dashes, and underscores.');
    expect(await page.isVisible('.errors-summary')).toBe(true);
    expect(await page.inputValue('#title')).toBe('Groceries');
    expect(await page.inputValue('#body')).toBe('milk & eggs');
    expect(await tags.nth(0).inputValue()).toBe('food');
    expect(await tags.nth(1).inputValue()).toBe('not ok');
    expect(await page.getAttribute('input[name="tags"] >> nth=1', 'aria-invalid')).toBe('true');
    expect(await t.db.selectFrom('notes').select('id').execute()).toEqual([]);

    // The session cookie, as the browser keeps it.
    const [cookie] = await context.cookies(t.url);
    expect(cookie).toMatchObject({ name: 'app_session', httpOnly: true, sameSite: 'Lax', secure: false, path: '/' });

    await tags.nth(1).fill('household');
    await Promise.all([page.waitForURL(/\/notes\/\d+$/), page.click('button[type="submit"]')]);
    expect(await page.textContent('h1')).toBe('Groceries');
    expect(await page.textContent('.status')).toBe('Note created.');
    expect(await page.locator('.tags span').allTextContents()).toEqual(['food', 'household']);
    const row = await t.db.selectFrom('notes').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ title: 'Groceries', body: 'milk & eggs', tags: ['food', 'household'] });

    // Reloading the note does not show the status again (flash lives one request).
    await page.reload();
    expect(await page.locator('.status').count()).toBe(0);
  });
});
