/**
 * Passkeys end to end in headless Chromium (docs/auth.md "Passkeys"): a
 * virtual authenticator of the DevTools protocol's WebAuthn domain (through
 * playwright-core's CDP session) answers the reference app's pages and its
 * browser script `bindery/passkeys.js` — registration on the passkeys page
 * after the password confirmation it asks for, then a usernameless sign-in
 * from the login page. The app runs on http://localhost:<port> (a WebAuthn
 * RP ID cannot be an IP address), APP_URL matching.
 *
 * Skipped, saying why, only when Chromium is not installed.
 */
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app from '../../app/main.js';
import { generateAppKey } from '../../runtime/config/app-key.js';
import { startApp, type RunningApp } from '../../runtime/app/index.js';
import type { AuthService } from '../../runtime/auth/index.js';
import { freePort } from '../../runtime/support/free-port.js';
import { launchChromium, type Browser } from '../support/chromium.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';

const PASSWORD = 'correct horse battery';

describe('passkeys | in headless Chromium with a virtual authenticator', () => {
  let database: TestDatabase;
  let running: RunningApp;
  let browser: Browser;
  let page: Page;
  let cdp: CDPSession;
  let base: string;
  let authenticator: string;

  beforeAll(async () => {
    database = await createTestDatabase('browser_passkeys');
    const port = await freePort();
    base = `http://localhost:${port}`;
    running = await startApp(app, {
      env: {
        ...referenceAppEnv,
        APP_ENV: 'testing',
        APP_KEY: generateAppKey(),
        LOG_LEVEL: 'silent',
        DATABASE_URL: database.url,
        HTTP_ADDR: `127.0.0.1:${port}`,
        APP_URL: base,
      },
      migrate: true,
      handleSignals: false,
      out: () => {},
    });
    browser = await launchChromium();
    page = browser.page;
    cdp = await browser.context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    ({ authenticatorId: authenticator } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    }));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await running?.close();
    await database?.drop();
  });

  it('registers a passkey after the password confirmation, then signs in with it without a username', async () => {
    const auth = running.services.auth as AuthService;
    const email = 'passkey@example.test';
    await running.db
      .insertInto('users')
      .values({ name: 'Passkey User', email, password: await auth.hashPassword(PASSWORD) })
      .execute();

    await page.goto(`${base}/login`);
    await page.fill('#email', email);
    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('button[type=submit]')]);

    // The passkeys page needs a fresh password confirmation: the confirm form, then back.
    await page.goto(`${base}/user/passkeys`);
    expect(new URL(page.url()).pathname).toBe('/user/confirm-password');
    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForURL(`${base}/user/passkeys`), page.click('button[type=submit]')]);

    await page.fill('#passkey-name', 'Chromium');
    await Promise.all([page.waitForLoadState('load'), page.click('[data-passkey=register]')]);
    await page.waitForSelector('[data-passkey-id]');
    expect(await page.textContent('.passkeys')).toContain('Chromium');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId: authenticator });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);
    expect(credentials[0]!.rpId).toBe('localhost');

    // Sign out, then sign in with the passkey alone.
    await page.goto(`${base}/dashboard`);
    await Promise.all([page.waitForURL(`${base}/login`), page.click('.account-nav button')]);
    await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('[data-passkey=login]')]);
    expect(await page.textContent('h1')).toBe('Dashboard');
    expect(await page.textContent('body')).toContain('Passkey User');
    const rows = await running.db
      .selectFrom('bindery_passkeys' as never)
      .selectAll()
      .execute();
    expect(rows).toHaveLength(1);
    expect((rows[0] as { last_used_at: Date | null }).last_used_at).not.toBeNull();
  });
});
