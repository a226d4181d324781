/**
 * The account flow in a real browser ("Tests that must exist"):
 * headless Chromium driven by playwright-core against the reference app on
 * real PostgreSQL — register, read the verification mail from the outbox
 * with `bindery mail:outbox`, follow the link, log out, log in with
 * remember-me, create a token, call /api/me with it.
 *
 * Skipped, saying why, only when Chromium is not installed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app from '../../app/main.js';
import type { Database } from '../../generated/types.js';
import { createTestApp, type TestApp } from '../../runtime/app/index.js';
import { runCli } from '../runtime/cli/run-cli.js';
import { launchChromium, type Browser } from '../support/chromium.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';

const APP_MODULE = fileURLToPath(new URL('../../app/main.ts', import.meta.url));

describe('accounts | in headless Chromium', () => {
  let database: TestDatabase;
  let t: TestApp<Database>;
  let browser: Browser;
  let cliDir: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    database = await createTestDatabase('browser_accounts');
    t = await createTestApp<Database>(app, { databaseUrl: database.url, env: referenceAppEnv });
    cliDir = await mkdtemp(join(tmpdir(), 'bindery-accounts-cli-'));
    browser = await launchChromium();
    ({ context, page } = browser);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (cliDir) await rm(cliDir, { recursive: true, force: true });
    await t?.close();
    await database?.drop();
  });

  /** The newest mail to `email`, as `bindery mail:outbox --json` prints it. */
  async function outbox(email: string): Promise<{ subject: string; links: string[] }> {
    const run = await runCli(['mail:outbox', '--to', email, '--limit', '1', '--json', '--app', APP_MODULE], {
      cwd: cliDir,
      env: {
        DATABASE_URL: database.url,
        APP_KEY: `base64:${Buffer.alloc(32, 3).toString('base64')}`,
        LOG_LEVEL: 'silent',
        ...referenceAppEnv,
      },
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [mail] = JSON.parse(run.stdout) as { subject: string; links: string[] }[];
    expect(mail, `a mail to ${email}`).toBeDefined();
    return mail!;
  }

  it('register → verification mail from the outbox → follow the link → log out → log in with remember-me → create a token → /api/me', async () => {
    // Register.
    await page.goto(`${t.url}/register`);
    await page.fill('#name', 'Ada Lovelace');
    await page.fill('#email', 'ada@example.test');
    await page.fill('#password', 'analytical engine');
    await page.fill('#password_confirmation', 'analytical engine');
    await Promise.all([page.waitForURL(`${t.url}/dashboard`), page.click('button[type="submit"]')]);
    expect(await page.textContent('body')).toContain('Signed in as Ada Lovelace');
    expect(await page.textContent('body')).toContain('not verified yet');

    // Read the verification mail from the outbox and follow its link.
    const mail = await outbox('ada@example.test');
    expect(mail.subject).toBe('Verify your email address for bindery');
    const link = new URL(mail.links[0]!);
    expect(link.pathname).toBe('/verify-email');
    await Promise.all([page.waitForURL(`${t.url}/dashboard`), page.goto(`${t.url}${link.pathname}${link.search}`)]);
    expect(await page.textContent('.status')).toBe('Thank you: your email address is verified.');
    expect(await page.textContent('body')).toContain('Your email address is verified.');
    const row = await t.db.selectFrom('users').selectAll().where('email', '=', 'ada@example.test').executeTakeFirstOrThrow();
    expect(row.email_verified_at).not.toBeNull();

    // Log out.
    await Promise.all([page.waitForURL(`${t.url}/login`), page.click('nav.account-nav button[type="submit"]')]);
    await page.goto(`${t.url}/dashboard`);
    expect(new URL(page.url()).pathname).toBe('/login');

    // Log in with remember-me: the remember cookie signs the browser back in once the session cookie is gone.
    await page.fill('#email', 'ada@example.test');
    await page.fill('#password', 'analytical engine');
    await page.check('#remember');
    await Promise.all([page.waitForURL(`${t.url}/dashboard`), page.click('button[type="submit"]')]);
    const cookies = await context.cookies(t.url);
    expect(cookies.map((c) => c.name)).toEqual(expect.arrayContaining(['app_session', 'app_remember']));
    await context.clearCookies({ name: 'app_session' });
    await page.goto(`${t.url}/dashboard`);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    expect(await page.textContent('body')).toContain('Signed in as Ada Lovelace');

    // Create a token: shown once. profile:read comes ticked; the documents abilities are ticked here.
    await page.fill('#token-name', 'my laptop');
    expect(await page.isChecked('input[name="abilities"][value="profile:read"]')).toBe(true);
    await page.check('input[name="abilities"][value="documents:read"]');
    await page.check('input[name="abilities"][value="documents:write"]');
    await Promise.all([page.waitForURL(`${t.url}/dashboard`), page.click('section.api-tokens form:last-of-type button[type="submit"]')]);
    const token = (await page.textContent('#new-token'))!;
    expect(token).toMatch(/^\d+\|[A-Za-z0-9_-]{40}$/);
    await page.reload();
    expect(await page.locator('#new-token').count()).toBe(0);
    expect(await page.textContent('section.api-tokens')).toContain('my laptop');

    // Call /api/me with it.
    const me = await fetch(`${t.url}/api/me`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({
      id: row.id,
      name: 'Ada Lovelace',
      email: 'ada@example.test',
      email_verified_at: row.email_verified_at!.toISOString(),
      admin: false,
      avatar_url: null,
    });
    // And the documents API, as the README's "Try it" does.
    const doc = await fetch(`${t.url}/api/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'plan', title: 'Plan' }),
    });
    expect(doc.status).toBe(201);
    expect(await page.textContent('section.api-tokens')).toContain('documents:read, documents:write, profile:read');
  }, 60_000);
});
