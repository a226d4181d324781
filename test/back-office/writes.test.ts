/**
 * The back office's writes over real HTTP (docs/back-office.md): create,
 * edit with a failed post's round trip (errors and every value typed),
 * delete, restore, force delete, bulk delete and restore — each with its
 * audit entry naming the signed-in admin and via_kind admin.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bootWorld, entriesOf, insertDocument, postPairs, type BackOfficeWorld } from './support.js';

let w: BackOfficeWorld;

beforeAll(async () => {
  w = await bootWorld('bo_writes');
});
afterAll(async () => {
  await w?.a.close();
});
beforeEach(async () => {
  await w.a.db.deleteFrom('documents').execute();
});

const documentRow = (id: number) => w.a.db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirst();

describe('back office | create and edit', () => {
  it('creates a document from the form: 303 to its page, the row written, the entry by the admin via admin', async () => {
    const form = await w.adminBrowser.page('/admin/documents/new');
    expect(form.status).toBe(200);
    expect(form.body).toContain('name="slug"');
    expect(form.body).toContain('<option value="published">published</option>');
    const res = await w.adminBrowser.form('/admin/documents', {
      owner_id: String(w.member.id),
      slug: 'made-here',
      title: 'Made here',
      body: 'text',
      status: 'published',
      view_count: '',
    });
    expect(res.status).toBe(303);
    const made = await w.a.db.selectFrom('documents').selectAll().where('slug', '=', 'made-here').executeTakeFirstOrThrow();
    expect(res.location).toBe(`/admin/documents/${made.id}`);
    expect(made).toMatchObject({ owner_id: w.member.id, title: 'Made here', body: 'text', status: 'published', view_count: 0 });
    expect(await entriesOf(w.a, 'documents', Number(made.id))).toEqual([
      { action: 'created', actor_type: 'user', actor_id: String(w.admin.id), via_kind: 'admin', via_name: 'back-office documents.create' },
    ]);
    const shown = await w.adminBrowser.page(res.location!);
    expect(shown.body).toContain(`Documents ${made.id} created.`);
  });

  it("a failed create goes back to the form with the route's errors and every value typed", async () => {
    const res = await w.adminBrowser.form(
      '/admin/documents',
      { owner_id: String(w.member.id), slug: 'not a slug!', title: '', body: 'kept body', status: 'draft' },
      { referer: '/elsewhere' },
    );
    expect(res.status).toBe(303);
    expect(res.location).toBe('/admin/documents/new');
    const back = await w.adminBrowser.page('/admin/documents/new');
    expect(back.body).toContain('Please correct the fields marked below.');
    // documents.create's rules: slug alpha_dash, title required.
    expect(back.body).toMatch(/id="slug-error">The slug (field )?must only contain letters, numbers, dashes,? and underscores\.?</);
    expect(back.body).toMatch(/id="title-error">The title field is required\.</);
    expect(back.body).toContain('value="not a slug!"');
    expect(back.body).toContain('>kept body</textarea>');
    expect(await w.a.db.selectFrom('documents').select('id').execute()).toEqual([]);
  });

  it('a create missing a column no route binds is refused by the model (owner_id required)', async () => {
    const res = await w.adminBrowser.form('/admin/documents', { owner_id: '', slug: 'orphan', title: 'Orphan', status: 'draft' });
    expect(res.status).toBe(303);
    const back = await w.adminBrowser.page('/admin/documents/new');
    expect(back.body).toContain('id="owner_id-error">The Owner ID field is required.<');
    expect(back.body).toContain('value="orphan"');
  });

  it('edits a document: the form shows its values; a failed post comes back with errors and input; a good one saves and is audited', async () => {
    const id = await insertDocument(w.a, w.member.id, { slug: 'editable', title: 'Before' });
    const form = await w.adminBrowser.page(`/admin/documents/${id}/edit`);
    expect(form.status).toBe(200);
    expect(form.body).toContain('value="Before"');
    const long = 'x'.repeat(256);
    const bad = await w.adminBrowser.form(`/admin/documents/${id}`, {
      owner_id: String(w.member.id),
      slug: 'editable',
      title: long,
      body: 'typed body',
      status: 'archived',
    });
    expect(bad.status).toBe(303);
    expect(bad.location).toBe(`/admin/documents/${id}/edit`);
    const back = await w.adminBrowser.page(`/admin/documents/${id}/edit`);
    // documents.update's rule: title between:1,255.
    expect(back.body).toMatch(/id="title-error">The title (field )?must be between 1 and 255 characters\.</);
    expect(back.body).toContain(`value="${long}"`);
    expect(back.body).toContain('>typed body</textarea>');
    expect(back.body).toContain('<option value="archived" selected>');
    expect((await documentRow(id))?.title).toBe('Before');

    const good = await w.adminBrowser.form(`/admin/documents/${id}`, {
      owner_id: String(w.member.id),
      slug: 'editable',
      title: 'After',
      body: 'typed body',
      status: 'archived',
      view_count: '7',
    });
    expect(good.status).toBe(303);
    expect(good.location).toBe(`/admin/documents/${id}`);
    expect(await documentRow(id)).toMatchObject({ title: 'After', body: 'typed body', status: 'archived', view_count: 7 });
    const entries = await entriesOf(w.a, 'documents', id);
    expect(entries).toEqual([
      { action: 'updated', actor_type: 'user', actor_id: String(w.admin.id), via_kind: 'admin', via_name: 'back-office documents.update' },
    ]);
  });

  it('a slug taken by another live document is a field error on slug, input kept', async () => {
    await insertDocument(w.a, w.member.id, { slug: 'taken' });
    const res = await w.adminBrowser.form('/admin/documents', {
      owner_id: String(w.member.id),
      slug: 'taken',
      title: 'Second',
      status: 'draft',
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/admin/documents/new');
    const back = await w.adminBrowser.page('/admin/documents/new');
    expect(back.body).toContain('id="slug-error">The Slug has already been taken.<');
    expect(back.body).toContain('value="Second"');
  });
});

describe('back office | delete, restore, force delete, bulk', () => {
  it('deletes (soft), restores and force-deletes one document, each audited as the admin via admin', async () => {
    const id = await insertDocument(w.a, w.member.id, { slug: 'cycle' });
    const page = await w.adminBrowser.page(`/admin/documents/${id}`);
    expect(page.body).toContain(`action="/admin/documents/${id}/delete"`);
    const del = await w.adminBrowser.form(`/admin/documents/${id}/delete`, {});
    expect(del.status).toBe(303);
    expect((await documentRow(id))?.deleted_at).not.toBeNull();
    const deleted = await w.adminBrowser.page(`/admin/documents/${id}`);
    expect(deleted.body).toContain('(deleted)');
    expect(deleted.body).toContain(`action="/admin/documents/${id}/restore"`);
    expect(deleted.body).not.toContain(`action="/admin/documents/${id}/delete"`);
    expect((await w.adminBrowser.page(`/admin/documents/${id}/edit`)).status).toBe(404);
    expect((await w.adminBrowser.form(`/admin/documents/${id}/restore`, {})).status).toBe(303);
    expect((await documentRow(id))?.deleted_at).toBeNull();
    expect((await w.adminBrowser.form(`/admin/documents/${id}/restore`, {})).status).toBe(404);
    await w.adminBrowser.page(`/admin/documents/${id}`);
    const force = await w.adminBrowser.form(`/admin/documents/${id}/force-delete`, {});
    expect(force.status).toBe(303);
    expect(force.location).toBe('/admin/documents');
    expect(await documentRow(id)).toBeUndefined();
    const by = { actor_type: 'user', actor_id: String(w.admin.id), via_kind: 'admin' };
    expect(await entriesOf(w.a, 'documents', id)).toEqual([
      { action: 'deleted', ...by, via_name: 'back-office documents.delete' },
      { action: 'restored', ...by, via_name: 'back-office documents.restore' },
      { action: 'force_deleted', ...by, via_name: 'back-office documents.forceDelete' },
    ]);
  });

  it('bulk-deletes and bulk-restores the selected rows only, as one bulk entry each', async () => {
    const [one, two, three] = [
      await insertDocument(w.a, w.member.id, { slug: 'one' }),
      await insertDocument(w.a, w.member.id, { slug: 'two' }),
      await insertDocument(w.a, w.member.id, { slug: 'three' }),
    ];
    const list = await w.adminBrowser.page('/admin/documents');
    expect(list.body).toContain(`name="ids" value="${one}"`);
    const del = await postPairs(w.adminBrowser, w.a.url, '/admin/documents/bulk', [
      ['action', 'delete'],
      ['ids', String(one)],
      ['ids', String(two)],
      ['back', '/admin/documents?sort=id&dir=desc'],
    ]);
    expect(del.status).toBe(303);
    expect(del.location).toBe('/admin/documents?sort=id&dir=desc');
    const live = await w.a.db.selectFrom('documents').select('id').where('deleted_at', 'is', null).execute();
    expect(live.map((r) => Number(r.id))).toEqual([three]);
    expect((await w.adminBrowser.page(del.location!)).body).toContain('2 rows deleted.');
    const bulk = await w.a.db
      .selectFrom('audit_bulk' as never)
      .select(['action', 'actor_type', 'actor_id', 'via_kind', 'via_name', 'row_count'] as never)
      .orderBy('id' as never)
      .execute();
    expect(bulk).toEqual([
      {
        action: 'deleted',
        actor_type: 'user',
        actor_id: String(w.admin.id),
        via_kind: 'admin',
        via_name: 'back-office documents.bulk-delete',
        row_count: expect.anything(),
      },
    ]);
    expect(Number((bulk[0] as { row_count: unknown }).row_count)).toBe(2);

    const restore = await postPairs(w.adminBrowser, w.a.url, '/admin/documents/bulk', [
      ['action', 'restore'],
      ['ids', String(two)],
    ]);
    expect(restore.status).toBe(303);
    expect(restore.location).toBe('/admin/documents');
    const after = await w.a.db.selectFrom('documents').select('id').where('deleted_at', 'is', null).orderBy('id').execute();
    expect(after.map((r) => Number(r.id))).toEqual([two, three].sort((x, y) => x - y));
  });
});
