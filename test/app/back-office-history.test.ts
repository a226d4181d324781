/**
 * The history pages' own logic on the reference app and real PostgreSQL
 * (docs/back-office.md "History and revert"): the dry run of a revert
 * tells what the revert would do and writes nothing; the activity page's
 * query leaves out what cannot be a filter, saying why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditLog } from '../../runtime/audit/audit-log.js';
import { dryRevert } from '../../runtime/back-office/history/dry-run.js';
import { parseActivityQuery } from '../../runtime/back-office/history/filters.js';
import { entryView } from '../../runtime/back-office/history/view-model.js';
import { readTimeline } from '../../runtime/audit/index.js';
import { trackedResources } from '../../generated/audit.js';
import type { User } from '../../generated/types.js';
import type { Client } from '../runtime/auth/support/client.js';
import { bearerCall, bootReferenceApp, makeAccount, signIn, type ReferenceApp } from './tokens-support.js';

let a: ReferenceApp;
let owner: User;
let log: AuditLog;
let adminBrowser: Client;

beforeAll(async () => {
  a = await bootReferenceApp('bo_history');
  owner = await makeAccount(a);
  log = a.t.running.services.audit as AuditLog;
  const admin = await makeAccount(a);
  await a.db.updateTable('users').set({ admin: true }).where('id', '=', admin.id).execute();
  adminBrowser = await signIn(a, admin);
});
afterAll(async () => {
  await a?.close();
});

/** A call of the documents API as the owner (bearer token, no session). */
const api = (method: string, path: string, body?: unknown) => bearerCall(a.t, a.url, owner.id, method, path, body);

const count = async (table: string) =>
  Number(
    (
      await a.db
        .selectFrom(table as never)
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function newestEntryId(id: number): Promise<string> {
  const page = await readTimeline(a.db, trackedResources, 'Document', id, { limit: 1 });
  const [event] = page.events;
  if (event === undefined) throw new Error('no entry');
  return event.ref.id;
}

describe('back office history | dry run of a revert', () => {
  it('a change: ok with the entry it would write, and nothing written', async () => {
    const made = await api('POST', '/api/documents', { slug: 'dry-1', title: 'First' });
    await api('PATCH', `/api/documents/${made.body.id}`, { title: 'Second' });
    const entry = await newestEntryId(made.body.id);
    const before = await count('audit_log');
    const dry = await dryRevert(log, { kind: 'entry', id: entry });
    expect(dry.outcome).toBe('ok');
    if (dry.outcome !== 'ok') return;
    expect(dry.result.entries).toHaveLength(1);
    expect(dry.result.entries[0]).toMatchObject({ action: 'reverted', diff: [{ field: 'title', old: 'Second', new: 'First' }] });
    expect(await count('audit_log')).toBe(before);
    expect((await api('GET', `/api/documents/${made.body.id}`)).body.title).toBe('Second');
  });

  it('a change made since: the three-way conflict; with the field confirmed: ok', async () => {
    const made = await api('POST', '/api/documents', { slug: 'dry-2', title: 'First' });
    await api('PATCH', `/api/documents/${made.body.id}`, { title: 'Second' });
    const entry = await newestEntryId(made.body.id);
    await api('PATCH', `/api/documents/${made.body.id}`, { title: 'Third' });
    const dry = await dryRevert(log, { kind: 'entry', id: entry });
    expect(dry).toMatchObject({
      outcome: 'conflict',
      conflicts: [
        { resource: 'documents', id: String(made.body.id), fields: [{ field: 'title', old: 'First', new: 'Second', current: 'Third' }] },
      ],
    });
    expect((await dryRevert(log, { kind: 'entry', id: entry }, { confirm: ['title'] })).outcome).toBe('ok');
    expect((await api('GET', `/api/documents/${made.body.id}`)).body.title).toBe('Third');
  });

  it('a bulk archive and a request: ok, nothing written; an unknown entry: not-found', async () => {
    const made = await api('POST', '/api/documents', { slug: 'dry-3', title: 'Pub', status: 'published' });
    const archived = await api('POST', '/api/documents/archive');
    expect(archived.body.archived).toBeGreaterThan(0);
    const [bulk] = (await a.db
      .selectFrom('audit_bulk' as never)
      .select(['id', 'request_id'] as never)
      .orderBy('id' as never, 'desc')
      .execute()) as {
      id: unknown;
      request_id: string;
    }[];
    const before = await count('audit_bulk');
    expect((await dryRevert(log, { kind: 'bulk', id: String(bulk?.id) })).outcome).toBe('ok');
    expect((await dryRevert(log, { kind: 'request', id: String(bulk?.request_id) })).outcome).toBe('ok');
    expect(await count('audit_bulk')).toBe(before);
    expect((await api('GET', `/api/documents/${made.body.id}`)).body.status).toBe('archived');
    expect((await dryRevert(log, { kind: 'entry', id: '999999999' })).outcome).toBe('not-found');
  });

  it('the view of an entry: the diff as text, share_token hidden, links to the row, the request and the revert', async () => {
    const made = await api('POST', '/api/documents', { slug: 'dry-4', title: 'Viewed' });
    const page = await readTimeline(a.db, trackedResources, 'Document', made.body.id);
    const view = entryView(page.events[0]!, { prefix: '/admin', sectionOf: (t) => (t === 'documents' ? 'documents' : undefined) });
    expect(view).toMatchObject({
      action: 'created',
      rowHref: `/admin/documents/${made.body.id}/history`,
      revertHref: `/admin/audit/${page.events[0]!.ref.id}/revert`,
    });
    expect(view.diff.find((d) => d.field === 'title')).toEqual({ field: 'title', old: '—', new: 'Viewed', redacted: false });
    expect(view.diff.map((d) => d.field)).not.toContain('share_token');
    expect(view.requestHref).toMatch(/^\/admin\/activity\?request=/);
  });
});

describe('back office history | a redacted field', () => {
  it('reads [redacted] on both sides, marked as such', () => {
    const view = entryView(
      {
        ref: { kind: 'entry', id: '9' },
        at: '2025-11-21T10:12:03.412Z',
        actor: { label: 'system', type: 'system', id: null },
        action: 'updated',
        resource: 'keys',
        resourceName: null,
        subjectId: '3',
        via: { kind: 'command', name: 'keys:rotate' },
        requestId: null,
        diff: [
          { field: 'label', old: 'a', new: 'b' },
          { field: 'secret', old: '[redacted]', new: '[redacted]' },
        ],
      },
      { prefix: '/admin', sectionOf: () => undefined },
    );
    expect(view.diff).toEqual([
      { field: 'label', old: 'a', new: 'b', redacted: false },
      { field: 'secret', old: '[redacted]', new: '[redacted]', redacted: true },
    ]);
    expect(view).toMatchObject({
      via: 'command keys:rotate',
      rowHref: undefined,
      requestHref: undefined,
      revertHref: '/admin/audit/9/revert',
    });
  });
});

describe('back office history | the activity query', () => {
  it('keeps the filters that can be, and says why others were left out', () => {
    const q = parseActivityQuery({
      actor: 'user:4',
      resource: 'documents',
      action: 'updated',
      request: 'abc',
      from: '2025-11-21',
      to: '2025-11-22T10:00',
    });
    expect(q.filters).toEqual({
      actor: 'user:4',
      resource: 'documents',
      action: 'updated',
      requestId: 'abc',
      from: new Date('2025-11-21T00:00:00Z'),
      to: new Date('2025-11-22T10:00:00Z'),
    });
    expect(q.ignored).toEqual({});
    const bad = parseActivityQuery({ actor: 'no spaces please', from: 'yesterday', page: '0', per: '1000', to: ['2025-13-40'] });
    expect(bad.filters).toEqual({});
    expect(Object.keys(bad.ignored).sort()).toEqual(['actor', 'from', 'page', 'per', 'to']);
    expect(bad.page).toBe(1);
    expect(bad.perPage).toBe(50);
    expect(parseActivityQuery({ from: '2025-11-22', to: '2025-11-21' }).ignored.to).toBe(
      'The to filter was left out: it is not after from.',
    );
  });
});

describe('back office history | the pages over HTTP', () => {
  it('bad input is a message, a 404 or a 400, never a server error', async () => {
    const bad = await adminBrowser.page('/admin/activity?from=yesterday&page=abc&actor=a%20b');
    expect(bad.status).toBe(200);
    expect(bad.body).toContain('The from filter was left out');
    expect(bad.body).toContain('The page number was left out');
    expect(bad.body).toContain('The actor filter was left out');
    expect((await adminBrowser.page('/admin/audit/abc/revert')).status).toBe(404);
    expect((await adminBrowser.page('/admin/audit/999999999/revert')).status).toBe(404);
    expect((await adminBrowser.page('/admin/audit/bulk/999999999/revert')).status).toBe(404);
    expect((await adminBrowser.page('/admin/audit/requests/nothing-here/revert')).status).toBe(404);
    expect((await adminBrowser.page('/admin/no_such_table/1/history')).status).toBe(404);
    expect((await adminBrowser.page('/admin/documents/1/history?cursor=garbage')).status).toBe(400);
    const none = await adminBrowser.page('/admin/documents/abc/history');
    expect(none.status).toBe(200);
    expect(none.body).toContain('No entry of the audit log names this row.');
  });

  it('the activity in offset pages with the total; the next page links on with the filters', async () => {
    await api('POST', '/api/documents', { slug: 'http-page-1', title: 'P1' });
    await api('POST', '/api/documents', { slug: 'http-page-2', title: 'P2' });
    const countOf = async (table: string) =>
      Number(
        (
          await a.db
            .selectFrom(table as never)
            .select((e) => e.fn.countAll().as('n'))
            .where('subject_type' as never, '=', 'documents' as never)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const total = (await countOf('audit_log')) + (await countOf('audit_bulk'));
    const first = await adminBrowser.page('/admin/activity?resource=documents&per=1');
    expect(first.status).toBe(200);
    expect(first.body).toContain(`${total} entries, page 1 of ${total}`);
    expect(first.body).toContain('rel="next" href="/admin/activity?resource=documents&amp;page=2&amp;per=1"');
    expect(first.body.match(/<article class="audit-entry"/g)).toHaveLength(1);
    const second = await adminBrowser.page('/admin/activity?resource=documents&page=2&per=1');
    expect(second.body).toContain(`page 2 of ${total}`);
    expect(second.body).toContain('rel="prev" href="/admin/activity?resource=documents&amp;per=1"');
  });

  it('the confirm form posts to the revert route with the CSRF token and the fields confirmed, and comes back with the status', async () => {
    const made = await api('POST', '/api/documents', { slug: 'http-1', title: 'One' });
    await api('PATCH', `/api/documents/${made.body.id}`, { title: 'Two' });
    const entry = await newestEntryId(made.body.id);
    await api('PATCH', `/api/documents/${made.body.id}`, { title: 'Three' });
    const confirm = await adminBrowser.page(`/admin/audit/${entry}/revert`);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain(`<form class="revert" method="post" action="/admin/audit/${entry}/revert">`);
    expect(confirm.body).toContain('name="_token"');
    expect(confirm.body).toContain('<input type="checkbox" name="confirm" value="title"');
    const refused = await adminBrowser.form(`/admin/audit/${entry}/revert`, {}, { referer: `${a.url}/admin/audit/${entry}/revert` });
    expect(refused.status).toBe(303);
    expect(refused.location).toBe(`/admin/audit/${entry}/revert`);
    expect((await adminBrowser.page(`/admin/audit/${entry}/revert`)).body).toContain('Nothing was reverted');
    const done = await adminBrowser.form(
      `/admin/audit/${entry}/revert`,
      { confirm: 'title' },
      { referer: `${a.url}/admin/audit/${entry}/revert` },
    );
    expect(done.status).toBe(303);
    const after = (await adminBrowser.page(`/admin/audit/${entry}/revert`)).body;
    expect(after).toContain('Reverted: 1 entry written.');
    expect(after).toContain('Nothing to revert: the row already holds the values from before the entry.');
    expect(after).not.toContain('<form class="revert"');
    expect((await api('GET', `/api/documents/${made.body.id}`)).body.title).toBe('One');
  });

  it('a force-deleted document: its history stays, and its revert inserts it again', async () => {
    const made = await api('POST', '/api/documents', { slug: 'http-gone', title: 'Gone' });
    const id = made.body.id as number;
    // The documents policy has no force delete for an admin: written through the model (by system).
    await log.model('Document').forceDelete(id as never);
    expect(await a.db.selectFrom('documents').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    const history = await adminBrowser.page(`/admin/documents/${id}/history`);
    expect(history.status).toBe(200);
    expect(history.body).toContain('no longer exists');
    expect(history.body).toContain('data-action="force_deleted"');
    const entry = await newestEntryId(id);
    const confirm = await adminBrowser.page(`/admin/audit/${entry}/revert`);
    // view_count is left out of the log, share_token redacted: the re-insert leaves them to their defaults once confirmed.
    expect(confirm.body).toContain(`action="/admin/audit/${entry}/revert"`);
    expect(confirm.body).toContain('<input type="checkbox" name="confirm" value="view_count"');
    expect(confirm.body).toContain('<input type="checkbox" name="confirm" value="share_token"');
    const refused = await adminBrowser.form(`/admin/audit/${entry}/revert`, {}, { referer: `${a.url}/admin/audit/${entry}/revert` });
    expect(refused.status).toBe(303);
    expect(await a.db.selectFrom('documents').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    // Both checked, as a browser posts two checkboxes of one name.
    const res = await adminBrowser.send('POST', `/admin/audit/${entry}/revert`, {
      headers: {
        accept: 'text/html',
        'content-type': 'application/x-www-form-urlencoded',
        origin: a.url,
        referer: `${a.url}/admin/audit/${entry}/revert`,
      },
      body: new URLSearchParams([
        ['_token', adminBrowser.token ?? ''],
        ['confirm', 'view_count'],
        ['confirm', 'share_token'],
      ]).toString(),
    });
    expect(res.status).toBe(303);
    expect((await adminBrowser.page(`/admin/audit/${entry}/revert`)).body).toContain('Reverted: 1 entry written.');
    expect((await a.db.selectFrom('documents').select('title').where('id', '=', id).executeTakeFirstOrThrow()).title).toBe('Gone');
  });

  it('a bulk write whose row changed since: the rows named, no field to confirm, no form', async () => {
    const made = await api('POST', '/api/documents', { slug: 'http-bulk', title: 'Pub', status: 'published' });
    await api('POST', '/api/documents/archive');
    const [bulk] = (await a.db
      .selectFrom('audit_bulk' as never)
      .select('id' as never)
      .orderBy('id' as never, 'desc')
      .execute()) as { id: unknown }[];
    await api('PATCH', `/api/documents/${made.body.id}`, { status: 'draft' });
    const page = await adminBrowser.page(`/admin/audit/bulk/${String(bulk!.id)}/revert`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`documents/${made.body.id}`);
    expect(page.body).toContain('Revert the later entries first.');
    expect(page.body).not.toContain('name="confirm"');
    expect(page.body).not.toContain('<form class="revert"');
  });
});
