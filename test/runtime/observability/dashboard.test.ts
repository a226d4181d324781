/**
 * The development dashboard (docs/observability.md "The development
 * dashboard"): the reference app with APP_ENV=development — the last
 * requests, one request with its SQL statements, jobs queued, the job's run
 * with its mail, audit entries and errors, the job queue, the mail outbox —
 * rendered under the default Content-Security-Policy; and absent (404) in
 * production and testing, whatever DEV_DASHBOARD says.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../runtime/app/index.js';
import { DEFAULT_CONTENT_SECURITY_POLICY } from '../../../runtime/config/content-security-policy.js';
import { startWorker, type RunningWorker } from '../../../runtime/jobs/index.js';
import { observability } from '../../../runtime/observability/index.js';
import { text } from '../../../runtime/results/index.js';
import type { RouteDefinition } from '../../../runtime/routing/route-table.js';
import { type AccountsApp, bootAccounts, makeUser } from '../../app/accounts-support.js';
import { bearerFor } from '../../app/tokens-support.js';
import { launchChromium } from '../../support/chromium.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { waitFor } from '../jobs/wait-for.js';

let a: AccountsApp;
let worker: RunningWorker | undefined;

beforeAll(async () => {
  a = await bootAccounts('dashboard', { APP_ENV: 'development', LOG_LEVEL: 'silent' });
});
afterAll(async () => {
  await worker?.stop();
  await a?.close();
});

async function page(path: string): Promise<{ status: number; html: string; headers: Headers }> {
  const res = await fetch(`${a.url}${path}`);
  return { status: res.status, html: await res.text(), headers: res.headers };
}

describe('Dashboard | development', () => {
  it('lists the last requests and shows one with its SQL (no values), audit entries and errors', async () => {
    const bearer = await bearerFor(a.t, 41);
    const created = await fetch(`${a.url}/api/documents`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
      body: JSON.stringify({ slug: 'dash-doc', title: 'A title seen only in the audit entry' }),
    });
    expect(created.status).toBe(201);
    const createdId = created.headers.get('x-request-id')!;
    const invalid = await fetch(`${a.url}/notes`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ title: '' }),
    });
    expect(invalid.status).toBe(422);

    const list = await page('/_bindery');
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(list.headers.get('content-security-policy')).toBe(DEFAULT_CONTENT_SECURITY_POLICY);
    expect(list.html).toContain(`href="/_bindery/requests/${createdId}"`);
    expect(list.html).toContain('documents.create');
    expect(list.html).toContain('notes.create');
    expect(list.html).not.toMatch(/<script|style=|https?:\/\/(?!127\.0\.0\.1)/);
    // The dashboard's own pages are not listed.
    expect(list.html).not.toContain('observability:');

    const detail = await page(`/_bindery/requests/${createdId}`);
    expect(detail.status).toBe(200);
    expect(detail.html).toContain('POST /api/documents');
    expect(detail.html).toContain('>201<');
    expect(detail.html).toContain('<dt>User</dt><dd>41</dd>');
    expect(detail.html).toContain('insert into &quot;documents&quot;');
    // The audit entry the request wrote, found by its request ID.
    expect(detail.html).toMatch(/<td>created<\/td><td>documents \d+<\/td><td>user:41<\/td>/);
    expect(detail.html).toContain('A title seen only in the audit entry');
    const sqlSection = detail.html.slice(detail.html.indexOf('<h2>SQL'), detail.html.indexOf('<h2>Mails'));
    expect(sqlSection).not.toContain('A title seen only in the audit entry');

    const failed = await page(`/_bindery/requests/${invalid.headers.get('x-request-id')}`);
    expect(failed.html).toContain('<strong>422</strong>');
  });

  it('follows a request into the job it queued: the job, its run, its mail; the queue and the outbox', async () => {
    const user = await makeUser(a, { email: `dash-${Date.now()}@example.test` });
    const res = await fetch(`${a.url}/forgot-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ email: user.email }),
      redirect: 'manual',
    });
    expect(res.status).toBeLessThan(400);
    const requestId = res.headers.get('x-request-id')!;

    const queuedPage = await page('/_bindery/jobs');
    expect(queuedPage.html).toContain('links:send_password_reset');
    expect(queuedPage.html).toContain('<td>waiting</td>');

    worker = await startWorker(a.t.running.services);
    await waitFor(
      async () => (await page(`/_bindery/requests/${requestId}`)).html.includes('/_bindery/runs/'),
      'the run under its request',
      15_000,
    );
    const detail = await page(`/_bindery/requests/${requestId}`);
    expect(detail.html).toMatch(/<td>links:send_password_reset<\/td><td>job<\/td><td>\d+<\/td><td class="">queued<\/td>/);
    const runPath = /href="(\/_bindery\/runs\/[^"]+)"/.exec(detail.html)![1]!;
    await waitFor(async () => (await page(runPath)).html.includes('succeeded'), 'the run to succeed', 15_000);
    const run = await page(runPath);
    expect(run.html).toContain(user.email);
    expect(run.html).toContain('select * from &quot;users&quot; where &quot;email&quot; = $1');
    expect(run.html).toContain(`href="/_bindery/requests/${requestId}"`);

    const jobs = await page('/_bindery/jobs');
    expect(jobs.html).toContain(runPath);
    const mail = await page('/_bindery/mail');
    expect(mail.status).toBe(200);
    expect(mail.html).toContain(user.email);
    const messagePath = /href="(\/_bindery\/mail\/\d+)"/.exec(mail.html)![1]!;
    const message = await page(messagePath);
    expect(message.html).toContain('/reset-password?token=');
  });

  it('an unknown request ID or message: 404 with a way back; the stylesheet is served by the app', async () => {
    expect((await page('/_bindery/requests/not-a-request')).status).toBe(404);
    expect((await page('/_bindery/runs/job-0-1')).status).toBe(404);
    expect((await page('/_bindery/mail/999999')).status).toBe(404);
    const css = await fetch(`${a.url}/_bindery/dashboard.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('renders in Chromium with no Content-Security-Policy violation, its stylesheet applied', async () => {
    const browser = await launchChromium();
    try {
      await browser.context.addInitScript({
        content:
          "window.__violations = []; document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));",
      });
      for (const path of ['/_bindery', '/_bindery/jobs', '/_bindery/mail']) {
        const res = await browser.page.goto(`${a.url}${path}`);
        expect(res!.status(), path).toBe(200);
        expect(await browser.page.evaluate<string[]>('window.__violations'), path).toEqual([]);
        // dashboard.css lays the header out as a flex row.
        expect(await browser.page.evaluate<string>("getComputedStyle(document.querySelector('header.top')).display"), path).toBe('flex');
      }
    } finally {
      await browser.close();
    }
  }, 60_000);
});

describe('Dashboard | a small app: errors with their stack; never outside development', () => {
  const hello: RouteDefinition = {
    name: 'hello',
    method: 'GET',
    path: '/hello',
    group: null,
    middleware: [],
    result: 'text',
    fields: [],
    validate: null,
    output: null,
    origin: 'test',
  };
  const app = defineApp({
    name: 'dashboard_absent',
    root: fileURLToPath(new URL('.', import.meta.url)),
    routes: [hello],
    handlers: { hello: () => text('hello') },
    migrations: [],
    setup: [observability()],
  });
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('dashboard_absent');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('development: a 500 shows with its stack', async () => {
    const boom: RouteDefinition = { ...hello, name: 'boom', path: '/boom' };
    const failing = defineApp({
      name: 'dashboard_errors',
      root: fileURLToPath(new URL('.', import.meta.url)),
      routes: [boom],
      handlers: {
        boom: () => {
          throw new Error('the boom route always fails');
        },
      },
      migrations: [],
      setup: [observability()],
    });
    const t: TestApp = await createTestApp(failing, { databaseUrl: database.url, env: { APP_ENV: 'development' } });
    try {
      const res = await fetch(`${t.url}/boom`, { headers: { accept: 'application/json' } });
      expect(res.status).toBe(500);
      const html = await (await fetch(`${t.url}/_bindery/requests/${res.headers.get('x-request-id')}`)).text();
      expect(html).toContain('<strong>500</strong>');
      expect(html).toMatch(/<pre>Error: the boom route always fails\n\s+at boom \(/);
    } finally {
      await t.close();
    }
  });

  for (const env of [
    { APP_ENV: 'production', DEV_DASHBOARD: 'true' },
    { APP_ENV: 'production' },
    { APP_ENV: 'testing', DEV_DASHBOARD: 'true' },
  ])
    it(`404 with ${JSON.stringify(env)}`, async () => {
      const t: TestApp = await createTestApp(app, { databaseUrl: database.url, env });
      try {
        expect((await fetch(`${t.url}/hello`)).status).toBe(200);
        for (const path of ['/_bindery', '/_bindery/jobs', '/_bindery/mail', '/_bindery/dashboard.css', '/_bindery/requests/x'])
          expect((await fetch(`${t.url}${path}`, { headers: { accept: 'application/json' } })).status, path).toBe(404);
      } finally {
        await t.close();
      }
    });
});
