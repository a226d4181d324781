/**
 * The back office's history and revert pages in a real browser
 * (docs/back-office.md "History and revert"): headless Chromium driven by
 * playwright-core against the reference app on real PostgreSQL. As an
 * admin: a document's history with its field-by-field diff, a change
 * reverted (and its own `reverted` entry), a bulk archive reverted as one
 * unit with one new bulk entry, a deleted document restored, a revert
 * refused after a later change then confirmed field by field, a request
 * undone, the activity filtered. As a user who is not an admin: 403 on
 * every back-office route.
 *
 * With BINDERY_SCREENSHOTS=1 the pages are also saved to
 * docs/images/back-office/ (the images docs/back-office.md shows).
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../generated/types.js';
import { bearerCall, bootReferenceApp, makeAccount, type ReferenceApp } from '../app/tokens-support.js';
import { launchChromium, type Browser } from '../support/chromium.js';

const SHOTS = process.env.BINDERY_SCREENSHOTS === '1';
const SHOTS_DIR = fileURLToPath(new URL('../../docs/images/back-office/', import.meta.url));

let a: ReferenceApp;
let owner: User;
let admin: User;
let browser: Browser;
let page: Page;

/** Save the page as docs/images/back-office/<name>.png (BINDERY_SCREENSHOTS=1 only). */
async function shot(name: string): Promise<void> {
  if (!SHOTS) return;
  await mkdir(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: `${SHOTS_DIR}${name}.png`, fullPage: true });
}

/** A call of the documents API as the owner (bearer token, no session). */
const api = (method: string, path: string, body?: unknown) => bearerCall(a.t, a.url, owner.id, method, path, body);

async function newDocument(slug: string, title: string, status = 'draft'): Promise<number> {
  const made = await api('POST', '/api/documents', { slug, title, status });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.id as number;
}

const docRow = async (id: number) => a.db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** The entries of the log of a document, newest first. */
async function entries(id: number): Promise<{ id: string; action: string; request_id: string | null }[]> {
  const rows = (await a.db
    .selectFrom('audit_log' as never)
    .select(['id', 'action', 'request_id'] as never)
    .where('subject_type' as never, '=', 'documents' as never)
    .where('subject_id' as never, '=', String(id) as never)
    .orderBy('id' as never, 'desc')
    .execute()) as { id: unknown; action: string; request_id: string | null }[];
  return rows.map((r) => ({ id: String(r.id), action: r.action, request_id: r.request_id }));
}

const bulkCount = async () =>
  Number(
    (
      await a.db
        .selectFrom('audit_bulk' as never)
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Open the confirm page of `entryId` from the document's history, submit it, and come back with the status message. */
async function revertFromHistory(docId: number, anchor: string): Promise<string | null> {
  await page.goto(`${a.url}/admin/documents/${docId}/history`);
  await Promise.all([page.waitForURL(/\/revert$/), page.click(`#${anchor} a.revert`)]);
  await Promise.all([page.waitForURL(/\/revert$/), page.click('form.revert button[type="submit"]')]);
  return page.textContent('.status');
}

async function signInBrowser(user: User): Promise<void> {
  await page.context().clearCookies();
  await page.goto(`${a.url}/login`);
  await page.fill('#email', user.email);
  await page.fill('#password', 'correct horse battery');
  await Promise.all([page.waitForURL(`${a.url}/dashboard`), page.click('button[type="submit"]')]);
}

beforeAll(async () => {
  a = await bootReferenceApp('browser_bo_history');
  owner = await makeAccount(a, { name: 'Olive Owner' });
  admin = await makeAccount(a, { name: 'Ada Admin' });
  await a.db.updateTable('users').set({ admin: true }).where('id', '=', admin.id).execute();
  browser = await launchChromium();
  page = browser.page;
  await page.setViewportSize({ width: 1100, height: 800 });
  await signInBrowser(admin);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await a?.close();
});

describe('back office history | in headless Chromium, as an admin', () => {
  it('browse a section, filter it, edit a document with a validation error and its round trip, see the diff, revert the edit', async () => {
    const draft = await newDocument('browse-draft', 'A draft');
    const published = await newDocument('browse-published', 'Published one', 'published');
    await page.goto(`${a.url}/admin/documents`);
    expect(await page.textContent('h1')).toContain('Documents');
    expect(await page.locator(`input[name="ids"][value="${draft}"]`).count()).toBe(1);

    // Filter by status: only published rows.
    await page.selectOption('#filter-status', 'published');
    await Promise.all([page.waitForURL(/filter/), page.click('form.bo-filters button[type="submit"]')]);
    const shown = await page.locator('input[name="ids"]').evaluateAll((els) => els.map((e) => e.getAttribute('value')));
    expect(shown).toContain(String(published));
    expect(shown).not.toContain(String(draft));

    // Edit: an empty title is refused beside the field, the values typed kept; then saved.
    await page.goto(`${a.url}/admin/documents/${published}/edit`);
    await page.fill('#f-title', '');
    await page.fill('#f-body', 'typed body');
    await Promise.all([page.waitForURL(`${a.url}/admin/documents/${published}/edit`), page.click('form.bo-form button[type="submit"]')]);
    expect(await page.textContent('#title-error')).toBeTruthy();
    expect(await page.isVisible('.errors-summary')).toBe(true);
    expect(await page.inputValue('#f-body')).toBe('typed body');
    expect((await docRow(published)).title).toBe('Published one');
    await page.fill('#f-title', 'Edited here');
    await Promise.all([page.waitForURL(`${a.url}/admin/documents/${published}`), page.click('form.bo-form button[type="submit"]')]);
    expect(await docRow(published)).toMatchObject({ title: 'Edited here', body: 'typed body' });

    // Its history, from the show page: the edit field by field, by the admin through the back office.
    await Promise.all([page.waitForURL(/\/history$/), page.click('a[href$="/history"]')]);
    const [edit] = await entries(published);
    const article = page.locator(`#entry-${edit!.id}`);
    expect(await article.getAttribute('data-action')).toBe('updated');
    expect(await article.locator('.actor').textContent()).toBe(`user:${admin.id}`);
    expect(await article.locator('tr[data-field="title"] td.old').textContent()).toBe('Published one');
    expect(await article.locator('tr[data-field="title"] td.new').textContent()).toBe('Edited here');
    expect(await article.locator('tr[data-field="body"] td.new').textContent()).toBe('typed body');

    // Revert it: the old values back, and the revert's own entry in the history.
    await Promise.all([page.waitForURL(/\/audit\/\d+\/revert$/), article.locator('a.revert').click()]);
    await Promise.all([page.waitForURL(/\/revert$/), page.click('form.revert button[type="submit"]')]);
    expect(await page.textContent('.status')).toBe('Reverted: 1 entry written.');
    expect(await docRow(published)).toMatchObject({ title: 'Published one', body: '' });
    const [own] = await entries(published);
    expect(own?.action).toBe('reverted');
    await page.goto(`${a.url}/admin/documents/${published}/history`);
    expect(await page.locator(`#entry-${own!.id} .performed`).textContent()).toBe(`(update of entry ${edit!.id})`);
    expect(await page.locator(`#entry-${own!.id} tr[data-field="title"] td.new`).textContent()).toBe('Published one');
  });

  it("a document's history shows each change field by field; reverting it writes the old values back and its own entry", async () => {
    const id = await newDocument('diff-one', 'First draft');
    expect((await api('PATCH', `/api/documents/${id}`, { title: 'Second draft', body: 'more' })).status).toBe(200);
    const [updated] = await entries(id);
    expect(updated?.action).toBe('updated');

    await page.goto(`${a.url}/admin/documents/${id}/history`);
    expect(await page.textContent('h1')).toMatch(new RegExp(`^History of Documents? ${id}$`));
    const article = page.locator(`#entry-${updated!.id}`);
    expect(await article.getAttribute('data-action')).toBe('updated');
    expect(await article.locator('tr[data-field="title"] td.old').textContent()).toBe('First draft');
    expect(await article.locator('tr[data-field="title"] td.new').textContent()).toBe('Second draft');
    expect(await article.locator('tr[data-field="body"] td.new').textContent()).toBe('more');
    // share_token is hidden: never shown.
    expect(await page.locator('tr[data-field="share_token"]').count()).toBe(0);
    expect(await page.locator('article[data-action="created"]').count()).toBe(1);
    await shot('history');

    const status = await revertFromHistory(id, `entry-${updated!.id}`);
    expect(status).toBe('Reverted: 1 entry written.');
    expect(await docRow(id)).toMatchObject({ title: 'First draft', body: '' });
    const [reverted] = await entries(id);
    expect(reverted?.action).toBe('reverted');

    await page.goto(`${a.url}/admin/documents/${id}/history`);
    const own = page.locator(`#entry-${reverted!.id}`);
    expect(await own.locator('.performed').textContent()).toBe(`(update of entry ${updated!.id})`);
    expect(await own.locator('tr[data-field="title"] td.new').textContent()).toBe('First draft');
    expect(await own.locator('.actor').textContent()).toBe(`user:${admin.id}`);
  });

  it('a revert refused after a later change: the three-way difference, nothing written until the field is confirmed', async () => {
    const id = await newDocument('conflict-one', 'One');
    await api('PATCH', `/api/documents/${id}`, { title: 'Two' });
    const [first] = await entries(id);
    await api('PATCH', `/api/documents/${id}`, { title: 'Three' });

    await page.goto(`${a.url}/admin/audit/${first!.id}/revert`);
    const row = page.locator('table.three-way tr[data-field="title"]');
    expect(await row.locator('td.old').textContent()).toBe('One');
    expect(await row.locator('td.new').textContent()).toBe('Two');
    expect(await row.locator('td.current').textContent()).toBe('Three');
    await shot('revert-conflict');

    // Submitted without the box checked: refused, back on the page, nothing written.
    await Promise.all([page.waitForURL(/\/revert$/), page.click('form.revert button[type="submit"]')]);
    expect(await page.textContent('.status')).toContain('Nothing was reverted');
    expect((await docRow(id)).title).toBe('Three');

    await page.check('input[name="confirm"][value="title"]');
    await Promise.all([page.waitForURL(/\/revert$/), page.click('form.revert button[type="submit"]')]);
    expect(await page.textContent('.status')).toBe('Reverted: 1 entry written.');
    expect((await docRow(id)).title).toBe('One');
  });

  it('a bulk archive reverted as one unit, with one new bulk entry', async () => {
    const ids = [await newDocument('bulk-one', 'B1', 'published'), await newDocument('bulk-two', 'B2', 'published')];
    const archived = await api('POST', '/api/documents/archive');
    expect(archived.body.archived).toBeGreaterThanOrEqual(2);
    for (const id of ids) expect((await docRow(id)).status).toBe('archived');
    const bulks = await bulkCount();

    await page.goto(`${a.url}/admin/documents/${ids[0]}/history`);
    const bulk = page.locator('article[data-kind="bulk"]').first();
    expect(await bulk.locator('.bulk').textContent()).toContain('bulk write of');
    expect(await bulk.locator('tr[data-field="status"] td.old').textContent()).toBe('published');
    expect(await bulk.locator('tr[data-field="status"] td.new').textContent()).toBe('archived');
    await Promise.all([page.waitForURL(/\/audit\/bulk\/\d+\/revert$/), bulk.locator('a.revert').click()]);
    // The confirm page lists the bulk write's rows, each with its values before and after.
    for (const id of ids) {
      const row = page.locator(`table.bulk-rows tr[data-row="${id}"][data-field="status"]`);
      expect(await row.locator('td.old').textContent()).toBe('published');
      expect(await row.locator('td.new').textContent()).toBe('archived');
    }
    await shot('revert-bulk');
    await Promise.all([page.waitForURL(/\/revert$/), page.click('form.revert button[type="submit"]')]);
    expect(await page.textContent('.status')).toBe('Reverted: 1 entry written.');
    for (const id of ids) expect((await docRow(id)).status).toBe('published');
    expect(await bulkCount()).toBe(bulks + 1);
  });

  it('a deleted document restored from its history', async () => {
    const id = await newDocument('deleted-one', 'Gone soon');
    expect((await api('DELETE', `/api/documents/${id}`)).status).toBe(204);
    const [deleted] = await entries(id);
    expect(deleted?.action).toBe('deleted');
    expect((await docRow(id)).deleted_at).not.toBeNull();
    expect(await revertFromHistory(id, `entry-${deleted!.id}`)).toBe('Reverted: 1 entry written.');
    expect((await docRow(id)).deleted_at).toBeNull();
    const [restored] = await entries(id);
    expect(restored?.action).toBe('reverted');
  });

  it('the activity filtered by actor, resource and action; a request undone from its activity', async () => {
    const id = await newDocument('request-one', 'Before');
    await api('PATCH', `/api/documents/${id}`, { title: 'After' });
    const [change] = await entries(id);

    await page.goto(`${a.url}/admin/activity?resource=documents&action=updated&actor=user:${owner.id}`);
    const listed = await page.locator('article.audit-entry').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
    expect(listed.length).toBeGreaterThan(0);
    expect(new Set(listed)).toEqual(new Set(['updated']));
    expect(await page.textContent('p.total')).toMatch(/^\d+ entr(y|ies)/);
    expect(await page.inputValue('#action')).toBe('updated');
    // A value that cannot be a filter is left out, saying so: never an error page.
    await page.goto(`${a.url}/admin/activity?from=yesterday`);
    expect(await page.textContent('ul.ignored')).toContain('The from filter was left out');

    // The entry's request ID links to the activity of that request, with its undo.
    await page.goto(`${a.url}/admin/activity?resource=documents&action=updated&actor=user:${owner.id}`);
    await Promise.all([page.waitForURL(/request=/), page.click(`#entry-${change!.id} a.request`)]);
    expect(await page.inputValue('#request')).toBe(change!.request_id);
    expect(await page.locator('article.audit-entry').count()).toBe(1);
    await shot('activity');
    await Promise.all([page.waitForURL(/\/audit\/requests\/.+\/revert$/), page.click('a.undo')]);
    await Promise.all([page.waitForURL(/\/revert$/), page.click('form.revert button[type="submit"]')]);
    expect(await page.textContent('.status')).toBe('Reverted: 1 entry written.');
    expect((await docRow(id)).title).toBe('Before');
  });
});

/** The routes under /admin of Fastify's `printRoutes()` tree: each node's path is its ancestors' segments and its own. */
function adminRoutes(tree: string): { path: string; methods: string[] }[] {
  const stack: string[] = [];
  const out: { path: string; methods: string[] }[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (m === null) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    const path = stack.join('').replace(/\/\/+/g, '/');
    if (m[3] !== undefined && (path === '/admin' || path.startsWith('/admin/'))) out.push({ path, methods: m[3].split(', ') });
  }
  return out;
}

describe('back office | a signed-in user who is not an admin', () => {
  it('gets 403 on every back-office route, pages and forms alike', async () => {
    const id = await newDocument('not-admin', 'Mine');
    await api('PATCH', `/api/documents/${id}`, { title: 'Still mine' });
    const [entry] = await entries(id);
    // Every route under /admin, as the HTTP server has it (its route tree, read back into paths).
    const fill = (path: string) =>
      path.replace(/:(\w+)/g, (_, name: string) =>
        name === 'requestId' ? entry!.request_id! : name === 'resource' ? 'documents' : name === 'id' ? String(id) : entry!.id,
      );
    const routes = adminRoutes(a.t.running.server.printRoutes({ commonPrefix: false })).flatMap(({ path, methods }) =>
      methods.filter((m) => m !== 'HEAD' && m !== 'OPTIONS').map((method) => ({ method, path: fill(path) })),
    );
    expect(routes.length).toBeGreaterThanOrEqual(8);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        `GET /admin`,
        `GET /admin/activity`,
        `GET /admin/audit/${entry!.id}/revert`,
        `GET /admin/documents/${id}/history`,
        `POST /admin/audit/${entry!.id}/revert`,
      ]),
    );

    await signInBrowser(owner);
    try {
      const token = await page.getAttribute('meta[name="csrf-token"]', 'content');
      expect(token).toBeTruthy();
      for (const route of routes) {
        if (route.method === 'GET') {
          const res = await page.goto(`${a.url}${route.path}`);
          expect(res?.status(), `${route.method} ${route.path}`).toBe(403);
        } else {
          const res = await page.request.fetch(`${a.url}${route.path}`, {
            method: route.method,
            headers: { 'x-csrf-token': token!, accept: 'application/json', 'content-type': 'application/json' },
            data: {},
          });
          expect(res.status(), `${route.method} ${route.path}: ${await res.text()}`).toBe(403);
        }
      }
      expect((await docRow(id)).title).toBe('Still mine');
    } finally {
      await signInBrowser(admin);
    }
  });
});
