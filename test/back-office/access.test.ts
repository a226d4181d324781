/**
 * Who may use the back office (docs/back-office.md "Access"): admins only —
 * a member gets 403 on every route of it, a guest is sent to log in — and
 * never a row the resource's policy hides: with a back office open to every
 * signed-in person, a member's lists, pages and writes keep to their own
 * documents (the policy documents).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app from '../../app/main.js';
import { sections } from '../../generated/back-office.js';
import type { Database, User } from '../../generated/types.js';
import { createTestApp, type TestApp } from '../../runtime/app/index.js';
import { backOffice } from '../../runtime/back-office/index.js';
import { Client } from '../runtime/auth/support/client.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';
import { makeAccount, signIn, type ReferenceApp } from '../app/tokens-support.js';
import { bootWorld, insertDocument, postPairs, type BackOfficeWorld } from './support.js';

describe('back office | admins only', () => {
  let w: BackOfficeWorld;
  beforeAll(async () => {
    w = await bootWorld('bo_access');
  });
  afterAll(async () => {
    await w?.a.close();
  });

  it('a member gets 403 on every back-office route, and nothing is written; a guest is sent to log in', async () => {
    const id = await insertDocument(w.a, w.admin.id, { slug: 'guarded' });
    // Every route of the back office: the home page, the stylesheet, and each section's.
    const routes: { method: 'GET' | 'POST'; path: string }[] = [
      { method: 'GET', path: '/admin' },
      { method: 'GET', path: '/admin/back-office.css' },
    ];
    for (const section of Object.values(sections)) {
      const p = `/admin/${section.path}`;
      routes.push(
        { method: 'GET', path: p },
        { method: 'GET', path: `${p}/new` },
        { method: 'POST', path: p },
        { method: 'POST', path: `${p}/bulk` },
      );
      routes.push({ method: 'GET', path: `${p}/{id}` }, { method: 'GET', path: `${p}/{id}/edit` }, { method: 'POST', path: `${p}/{id}` });
      routes.push({ method: 'POST', path: `${p}/{id}/delete` }, { method: 'POST', path: `${p}/{id}/force-delete` });
      if (section.softDelete !== null) routes.push({ method: 'POST', path: `${p}/{id}/restore` });
    }
    expect(routes).toHaveLength(2 + 10 + 9);
    for (const route of routes) {
      const path = route.path.replace('{id}', String(id));
      const res =
        route.method === 'GET'
          ? await w.memberBrowser.page(path)
          : await w.memberBrowser.form(path, { action: 'delete', ids: String(id), slug: 'x', title: 'x' });
      expect([route.path, res.status]).toEqual([route.path, 403]);
      expect(res.body).not.toContain('guarded');
      if (route.method === 'GET') {
        const guest = await new Client(w.a.url).page(path);
        expect([route.path, guest.status, guest.location]).toEqual([route.path, 303, '/login']);
      }
    }
    expect(await w.a.db.selectFrom('documents').select(['slug', 'deleted_at']).execute()).toEqual([{ slug: 'guarded', deleted_at: null }]);
    // The navigation links the back office for admins only.
    expect((await w.adminBrowser.page('/dashboard')).body).toContain('href="/admin"');
    expect((await w.memberBrowser.page('/dashboard')).body).not.toContain('href="/admin"');
  });
});

describe('back office | rows the policy hides', () => {
  let database: TestDatabase;
  let t: TestApp<Database>;
  let a: ReferenceApp;
  let mine: User;
  let theirs: User;
  let me: Client;
  beforeAll(async () => {
    database = await createTestDatabase('bo_policy');
    // The reference app with a back office every signed-in person may open (documents.create: signedIn).
    const open = {
      ...app,
      setup: app.setup.map((s) => (s.name === 'backOffice' ? backOffice({ sections, authorize: 'documents.create' }) : s)),
    };
    t = await createTestApp<Database>(open, { databaseUrl: database.url, env: referenceAppEnv });
    a = { t, db: t.db, url: t.url, auth: t.running.services.auth, close: async () => {} } as unknown as ReferenceApp;
    mine = await makeAccount(a);
    theirs = await makeAccount(a);
    me = await signIn(a, mine);
    await me.page('/dashboard');
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it("lists, shows and writes only the member's own documents", async () => {
    const own = await insertDocument(a, mine.id, { slug: 'own' });
    const other = await insertDocument(a, theirs.id, { slug: 'other-secret' });
    const list = await me.page('/admin/documents');
    expect(list.status).toBe(200);
    expect(list.body).toContain('1 row');
    expect(list.body).toContain(`href="/admin/documents/${own}"`);
    expect(list.body).not.toContain('other-secret');
    expect(list.body).not.toContain(`href="/admin/documents/${other}"`);
    expect((await me.page('/admin')).body).toMatch(/Documents<\/a><\/td><td class="num">1</);
    expect((await me.page(`/admin/documents/${other}`)).status).toBe(404);
    expect((await me.page(`/admin/documents/${other}/edit`)).status).toBe(404);
    await me.page('/admin/documents');
    expect((await me.form(`/admin/documents/${other}/delete`, {})).status).toBe(404);
    expect(
      (await me.form(`/admin/documents/${other}`, { owner_id: String(mine.id), slug: 'stolen', title: 'x', status: 'draft' })).status,
    ).toBe(404);
    const bulk = await postPairs(me, a.url, '/admin/documents/bulk', [
      ['action', 'delete'],
      ['ids', String(own)],
      ['ids', String(other)],
    ]);
    expect(bulk.status).toBe(303);
    const rows = await a.db.selectFrom('documents').select(['id', 'deleted_at']).orderBy('id').execute();
    expect(rows.map((r) => [Number(r.id), r.deleted_at === null])).toEqual([
      [own, false],
      [other, true],
    ]);
  });
});
