/**
 * The history of a row (docs/spec.md 6.1 rule 13): own entries and
 * the bulk writes that touched it, newest first, deleted rows included,
 * paged by an opaque cursor.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../../runtime/audit/index.js';
import { runInContext, withActor } from '../../../runtime/context/execution-context.js';
import { auditFixture, newDocument, type AuditFixture } from './support.js';

let f: AuditFixture;
beforeAll(async () => {
  f = await auditFixture();
});
afterAll(async () => {
  await f?.close();
});
beforeEach(async () => {
  await f.reset();
});

/** Every event of a row, following the cursors; checks each page's shape on the way. */
async function allPages(id: number, limit: number): Promise<{ events: HistoryEvent[]; pages: number[] }> {
  const events: HistoryEvent[] = [];
  const pages: number[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const page = await f.Document.history(id, { cursor, limit });
    pages.push(page.events.length);
    events.push(...page.events);
    expect(page.next !== undefined).toBe(page.events.length === limit);
    if (page.next === undefined) return { events, pages };
    cursor = page.next;
  }
  throw new Error('too many pages');
}

describe('history | single-row and bulk entries', () => {
  it("lists the row's own entries and the bulk writes that touched it, newest first, with their shapes", async () => {
    const via = (name: string) => ({ via: { kind: 'request', name }, resolveUser: async () => ({ type: 'user', id: '7' }) });
    const doc = await runInContext(via('POST /api/documents'), () => f.Document.create(newDocument(1, 7)));
    await f.Document.create(newDocument(2, 7));
    await runInContext(via(`PATCH /api/documents/${doc.id}`), () => f.Document.update(doc.id, { title: 'Second', status: 'published' }));
    await runInContext(via('POST /api/documents/archive'), () =>
      f.Document.query().where('owner_id', '=', 7).where('status', '=', 'published').update({ status: 'archived' }),
    );
    await withActor({ type: 'admin', id: '1' }, () => f.Document.delete(doc.id));
    await f.log.record({ action: 'documents.flagged', subject: { type: 'documents', id: doc.id }, details: { reason: 'spam' } });
    const page = await f.Document.history(doc.id);
    expect(page.next).toBeUndefined();
    expect(page.events).toEqual([
      { at: expect.any(String), actor: 'system', action: 'documents.flagged', via: null, changes: {}, details: { reason: 'spam' } },
      { at: expect.any(String), actor: 'admin:1', action: 'deleted', via: 'withActor', changes: {} },
      { at: expect.any(String), actor: 'user:7', action: 'updated', via: 'POST /api/documents/archive', rows: 1 },
      {
        at: expect.any(String),
        actor: 'user:7',
        action: 'updated',
        via: `PATCH /api/documents/${doc.id}`,
        changes: { old: { title: 'Document 1', status: 'draft' }, new: { title: 'Second', status: 'published' } },
      },
      {
        at: expect.any(String),
        actor: 'user:7',
        action: 'created',
        via: 'POST /api/documents',
        changes: { new: expect.objectContaining({ id: doc.id, title: 'Document 1' }) },
      },
    ]);
    const times = page.events.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('keeps the history of a force-deleted row, last entry first', async () => {
    const doc = await f.Document.create(newDocument(1));
    await f.Document.forceDelete(doc.id);
    expect((await f.Document.history(doc.id)).events.map((e) => e.action)).toEqual(['force_deleted', 'created']);
  });

  it('pages across bulk and single entries without gaps or repeats; a last full page is followed by an empty one', async () => {
    const doc = await f.Document.create(newDocument(1));
    await f.Document.create(newDocument(2));
    for (let i = 0; i < 29; i++) {
      await f.Document.update(doc.id, { title: `Title ${i}` });
      if (i % 2 === 0) await f.Document.query().update({ body: `Bulk ${i}` });
    }
    // 1 created + 29 updated + 15 bulk = 45 events on row 1; 15 + 1 on row 2.
    const { events, pages } = await allPages(doc.id, 15);
    expect(pages).toEqual([15, 15, 15, 0]);
    expect(events).toHaveLength(45);
    const full = await f.Document.history(doc.id, { limit: 1000 });
    expect(events).toEqual(full.events);
    expect(events.filter((e) => e.rows !== undefined)).toHaveLength(15);
    expect(events.at(-1)!.action).toBe('created');
    expect(events[0]).toMatchObject({ action: 'updated', rows: 2 });
    expect(events[1]).toMatchObject({ action: 'updated', changes: { new: { title: 'Title 28' } } });
    expect((await allPages(doc.id, 7)).pages).toEqual([7, 7, 7, 7, 7, 7, 3]);
  });

  it('at equal times lists single-row entries before bulk entries, and pages through a tie', async () => {
    const doc = await f.Document.create(newDocument(1));
    await f.Document.update(doc.id, { title: 'A' });
    await f.Document.query().update({ body: 'bulk' });
    await f.Document.update(doc.id, { title: 'B' });
    // Give the three latest entries one and the same time (a literal without a zone: MariaDB's DATETIME takes no other).
    const at = '2031-05-01 12:00:00.123456';
    await sql`update audit_log set occurred_at = ${at} where action = 'updated'`.execute(f.database.db);
    await sql`update audit_bulk set occurred_at = ${at}`.execute(f.database.db);
    const expected = ['updated:B', 'updated:A', 'bulk', 'created'];
    const label = (e: HistoryEvent) =>
      e.rows !== undefined ? 'bulk' : e.action === 'updated' ? `updated:${(e.changes!.new as { title: string }).title}` : e.action;
    expect((await f.Document.history(doc.id)).events.map(label)).toEqual(expected);
    const { events } = await allPages(doc.id, 1);
    expect(events.map(label)).toEqual(expected);
  });

  it('refuses a cursor it did not make (400 on cursor)', async () => {
    const doc = await f.Document.create(newDocument(1));
    for (const cursor of [
      'nope',
      Buffer.from('["x",0,1]').toString('base64url'),
      Buffer.from('["2030-01-01T00:00:00Z",2,1]').toString('base64url'),
    ]) {
      await expect(f.Document.history(doc.id, { cursor })).rejects.toMatchObject({
        status: 400,
        code: 'BINDERY_AUDIT_CURSOR_INVALID',
        fieldErrors: { cursor: expect.any(String) },
      });
    }
  });
});
