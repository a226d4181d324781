/**
 * The back office's pages over real HTTP (docs/back-office.md): the home
 * page, a section's list (sort, filters, search, pages with a total, the
 * deleted rows' toggle), the show page; admins only, and never a row the
 * resource's policy hides.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bootWorld, insertDocument, type BackOfficeWorld } from './support.js';

let w: BackOfficeWorld;

beforeAll(async () => {
  w = await bootWorld('bo_pages');
});
afterAll(async () => {
  await w?.a.close();
});
beforeEach(async () => {
  await w.a.db.deleteFrom('documents').execute();
});

/** The IDs of the rows a list page links to, in order. */
function listedIds(html: string): number[] {
  return [...html.matchAll(/<a href="\/admin\/documents\/(\d+)">/g)].map((m) => Number(m[1]));
}

describe('back office | home and list', () => {
  it('the home page lists the sections with their row counts and the newest users, HTML-escaped', async () => {
    await insertDocument(w.a, w.admin.id, { slug: 'a' });
    await insertDocument(w.a, w.admin.id, { slug: 'b', deleted: true });
    const home = await w.adminBrowser.page('/admin');
    expect(home.status).toBe(200);
    expect(home.headers['content-type']).toMatch(/^text\/html/);
    expect(home.body).toMatch(/<a href="\/admin\/documents">Documents<\/a><\/td><td class="num">1<\/td><td class="num">1<\/td>/);
    expect(home.body).toContain('href="/admin/document-attachments"');
    expect(home.body).toContain('href="/admin/activity"');
    expect(home.body).toContain('Ada Admin');
    expect(home.body).toContain('<link rel="stylesheet" href="/admin/back-office.css">');
    expect(home.body).not.toContain('<script');
    // The app's CSP, and nothing it would block: no inline script or style, nothing from another origin.
    const dashboard = await w.adminBrowser.page('/dashboard');
    expect(home.headers['content-security-policy']).toBeTruthy();
    expect(home.headers['content-security-policy']).toBe(dashboard.headers['content-security-policy']);
    expect(home.headers['content-security-policy']).not.toContain('unsafe-inline');
    for (const page of [home, await w.adminBrowser.page('/admin/documents'), await w.adminBrowser.page('/admin/documents/new')]) {
      expect(page.body).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
      expect(page.body).not.toMatch(/(src|href|action)="(https?:)?\/\//);
    }
    const css = await w.adminBrowser.send('GET', '/admin/back-office.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  });

  it('sorts by a list column, filters by an enum, searches the text fields, and pages with a total', async () => {
    for (let i = 1; i <= 30; i++)
      await insertDocument(w.a, w.admin.id, {
        slug: `doc-${String(i).padStart(2, '0')}`,
        title: i % 2 === 0 ? `Even ${i}` : `Odd ${i}`,
        status: i <= 3 ? 'published' : 'draft',
      });
    const first = await w.adminBrowser.page('/admin/documents');
    expect(first.status).toBe(200);
    expect(first.body).toContain('30 rows');
    expect(first.body).toContain('Page 1 of 2');
    const ids = listedIds(first.body);
    expect(ids).toHaveLength(25);
    expect(ids).toEqual([...ids].sort((x, y) => y - x)); // newest first by default
    const second = await w.adminBrowser.page('/admin/documents?page=2');
    expect(listedIds(second.body)).toHaveLength(5);
    expect(second.body).toContain('Page 2 of 2');

    const bySlug = await w.adminBrowser.page('/admin/documents?sort=slug&dir=asc');
    const slugs = [...bySlug.body.matchAll(/<td>(doc-\d\d)<\/td>/g)].map((m) => m[1]);
    expect(slugs.slice(0, 3)).toEqual(['doc-01', 'doc-02', 'doc-03']);

    const published = await w.adminBrowser.page('/admin/documents?filter%5Bstatus%5D=published');
    expect(published.body).toContain('3 rows');
    expect(listedIds(published.body)).toHaveLength(3);
    const bogus = await w.adminBrowser.page('/admin/documents?filter%5Bstatus%5D=nonsense');
    expect(bogus.body).toContain('0 rows');

    const search = await w.adminBrowser.page('/admin/documents?q=even%201');
    // Even 10, 12, 14, 16, 18 (contains "even 1", any case).
    expect(search.body).toContain('5 rows');
    const wild = await w.adminBrowser.page('/admin/documents?q=%25');
    expect(wild.body).toContain('0 rows');

    // A column that is not the section's is never sorted by.
    const odd = await w.adminBrowser.page('/admin/documents?sort=share_token%3Bdrop');
    expect(odd.status).toBe(200);
    expect(listedIds(odd.body)).toHaveLength(25);
  });

  it('hides soft-deleted rows unless the toggle asks for them', async () => {
    const live = await insertDocument(w.a, w.admin.id, { slug: 'live' });
    const gone = await insertDocument(w.a, w.admin.id, { slug: 'gone', deleted: true });
    expect(listedIds((await w.adminBrowser.page('/admin/documents')).body)).toEqual([live]);
    expect(listedIds((await w.adminBrowser.page('/admin/documents?trashed=with')).body)).toEqual([gone, live]);
    expect(listedIds((await w.adminBrowser.page('/admin/documents?trashed=only')).body)).toEqual([gone]);
  });

  it('the show page lists the fields, links the reference to its section, and links the history', async () => {
    const doc = await insertDocument(w.a, w.admin.id, { slug: 'shown', title: '<b>bold</b>' });
    await w.a.db
      .insertInto('document_attachments')
      .values({
        document_id: doc,
        file: JSON.stringify({ disk: 'local', key: 'k', name: 'a.txt', size: 3, type: 'text/plain', sha256: 'x' }),
      } as never)
      .execute();
    const page = await w.adminBrowser.page(`/admin/documents/${doc}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(page.body).toContain(`href="/admin/documents/${doc}/history"`);
    expect(page.body).toContain(`href="/admin/documents/${doc}/edit"`);
    // Its attachments: the attachments' list filtered by this document.
    expect(page.body).toContain(
      `<a href="/admin/document-attachments?filter%5Bdocument_id%5D=${doc}&amp;trashed=with">Attachments (Document)</a>`,
    );
    const filtered = await w.adminBrowser.page(`/admin/document-attachments?filter%5Bdocument_id%5D=${doc}`);
    expect(filtered.body).toContain('1 row');
    const att = await w.a.db.selectFrom('document_attachments').select('id').executeTakeFirstOrThrow();
    const attachment = await w.adminBrowser.page(`/admin/document-attachments/${att.id}`);
    expect(attachment.status).toBe(200);
    expect(attachment.body).toContain(`<a href="/admin/documents/${doc}">${doc}</a>`);
    // Attachments need a file, which the forms do not edit: no create form.
    expect((await w.adminBrowser.page('/admin/document-attachments')).body).not.toContain('href="/admin/document-attachments/new"');
    expect((await w.adminBrowser.page('/admin/document-attachments/new')).status).toBe(404);
    expect((await w.adminBrowser.page('/admin/documents')).body).toContain('href="/admin/documents/new"');
    expect((await w.adminBrowser.page('/admin/documents/999999')).status).toBe(404);
    expect((await w.adminBrowser.page('/admin/documents/nope')).status).toBe(404);
  });
});
