/**
 * The test kit (bindery/testing, docs/testing.md) on the reference app:
 * requests by route name, a browser signed in through the login route, an
 * API token holder, the outbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootTestKit, type TestKit } from 'bindery/testing';
import app from '../../app/main.js';
import type { Handlers } from '../../generated/handlers.js';
import { routes } from '../../generated/routes.js';
import type { Database } from '../../generated/types.js';
import { testServerUrl } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';
import { insertReturning } from '../../runtime/db/portable-writes.js';

let t: TestKit<Handlers, Database>;
beforeAll(async () => {
  t = await bootTestKit<Handlers, Database>(app, { routes, serverUrl: testServerUrl(), prefix: 'kit', env: { ...referenceAppEnv } });
});
afterAll(async () => {
  await t?.close();
});

describe('bindery/testing | bootTestKit on the reference app', () => {
  it('calls routes by name: JSON in, typed JSON out, path parameters filled', async () => {
    const created = await t.request('notes.create', { title: 'From the kit', tags: ['kit'] });
    expect(created.status).toBe(201);
    expect(created.location).toBe(`/notes/${created.body.id}`);
    expect(created.body).toMatchObject({ title: 'From the kit', tags: ['kit'] });
    const shown = await t.request('notes.show', { id: created.body.id });
    expect(shown.status).toBe(200);
    expect(shown.body.title).toBe('From the kit');
    const listed = await t.request('notes.list', { limit: 1 });
    expect(listed.body.data.map((n) => n.id)).toEqual([created.body.id]);
    expect(await t.db.selectFrom('notes').select('title').where('id', '=', created.body.id).executeTakeFirst()).toEqual({
      title: 'From the kit',
    });
  });

  it('returns problem details as the body of a 422', async () => {
    const res = await t.request('notes.create', { title: '' });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 422, errors: { title: 'The title field is required.' } });
  });

  it('refuses an unknown route name and a missing path parameter', async () => {
    await expect(t.request('notes.nope' as 'notes.show', {})).rejects.toThrow('no route named "notes.nope"');
    await expect(t.request('notes.show', {})).rejects.toThrow('route "notes.show" needs path parameter "id"');
  });

  it('registers through a form, reads the outbox, signs in in one call and sees the dashboard', async () => {
    const browser = t.browser();
    await browser.send('GET', '/register', { headers: { accept: 'text/html' } });
    const registered = await browser.request(
      'accounts.register',
      { name: 'Kit', email: 'kit@example.test', password: 'correct horse battery', password_confirmation: 'correct horse battery' },
      { form: true },
    );
    expect(registered.status).toBe(303);
    const mail = await t.outbox('kit@example.test');
    expect(mail.length).toBeGreaterThan(0);
    expect(mail[0]!.to).toContain('kit@example.test');

    const signedIn = await t.signIn('accounts.login', { email: 'kit@example.test', password: 'correct horse battery' });
    const dashboard = await signedIn.request('accounts.dashboard');
    expect(dashboard.status).toBe(200);
    expect(dashboard.text).toContain('Kit');
    const anonymous = await t.browser().request('accounts.dashboard');
    expect(anonymous.status).toBe(303);
    await expect(t.signIn('accounts.login', { email: 'kit@example.test', password: 'wrong password here' })).rejects.toThrow(
      'sign-in through "accounts.login" failed: 303 back to /login',
    );
  });

  it('makes a bearer token holder in one call', async () => {
    const user = await t.db.selectFrom('users').select('id').where('email', '=', 'kit@example.test').executeTakeFirstOrThrow();
    const holder = await t.withToken(user.id, ['profile:read']);
    const me = await holder.request('api.me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'kit@example.test' });
    const without = await t.withToken(user.id, []);
    expect((await without.request('api.me')).status).toBe(403);
    expect((await t.request('api.me')).status).toBe(401);
  });
});

describe('bindery/testing | asking the policies directly (docs/authorization.md "Testing a policy")', () => {
  it('t.can and t.scope answer as a user, a guest or a token, without a request', async () => {
    const insertUser = (email: string, admin = false) => insertReturning(t.db, 'users', { name: email, email, password: 'x', admin });
    const author = await insertUser('author@kit.test');
    const reader = await insertUser('reader@kit.test');
    const chief = await insertUser('chief@kit.test', true);
    const doc = await insertReturning(t.db, 'documents', { owner_id: author.id, slug: 'kit-doc', title: 'Kit' });
    expect(await t.can(author, 'documents.update', doc)).toBe(true);
    expect(await t.can(reader, 'documents.update', doc)).toBe(false);
    // schema/documents.yaml: an admin may act on every document too, but not archive another's.
    expect(await t.can(chief, 'documents.update', doc)).toBe(true);
    expect(await t.can(chief, 'documents.archive', doc)).toBe(false);
    expect(await t.can(null, 'documents.create')).toBe(false);
    expect(await t.can(author, 'documents.create')).toBe(true);
    // A token needs the action's ability too.
    expect(await t.can(author, 'documents.update', doc, { abilities: ['documents:read'] })).toBe(false);
    expect(await t.can(author, 'documents.update', doc, { abilities: ['documents:write'] })).toBe(true);
    // The TypeScript policy users.view (app/policies/users.ts): yourself, or anyone for an admin.
    expect(await t.can(reader, 'users.view', author)).toBe(false);
    expect(await t.can(chief, 'users.view', author)).toBe(true);
    expect(await t.can(chief, 'users.admin')).toBe(true);
    expect(await t.can(reader, 'users.admin')).toBe(false);
    const visible = async (user: { id: number } | null) =>
      (
        await t.db
          .selectFrom('documents')
          .select('slug')
          .where(await t.scope(user, 'documents.view'))
          .execute()
      ).map((r) => r.slug);
    expect(await visible(author)).toContain('kit-doc');
    expect(await visible(reader)).not.toContain('kit-doc');
    expect(await visible(chief)).toContain('kit-doc');
    expect(await visible(null)).toEqual([]);
    await expect(t.can(author, 'documents.edit')).rejects.toThrow(/No policy action is named "documents\.edit"/);
  });
});
