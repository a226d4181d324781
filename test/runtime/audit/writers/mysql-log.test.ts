/**
 * The audit log's reads and upkeep on MySQL and MariaDB (docs/spec.md 6.1
 * rules 11–14; docs/audit.md "History", "Retention, erasure and the prune of
 * deleted rows", "Engines"), on the run's MariaDB: history pages and their
 * cursors, application events, retention in batches, erasure, the prune of
 * soft-deleted rows, and the migration set's MySQL tables.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  anonymizeActor,
  AuditLog,
  pruneAuditLog,
  pruneSoftDeleted,
  readHistory,
  type HistoryEvent,
} from '../../../../runtime/audit/index.js';
import { runInContext, withActor } from '../../../../runtime/context/execution-context.js';
import { auditFixture, newDocument, type AuditFixture } from '../support.js';

let f: AuditFixture;
beforeAll(async () => {
  f = await auditFixture({ AUDIT_RETENTION_DAYS: 30 }, { engine: 'mariadb' });
  f.log.registerPrunable('Document', '30d');
});
afterAll(async () => {
  await f?.close();
});
beforeEach(async () => {
  await f.reset();
});

const DAY = 86_400_000;
const command = (name: string) => ({ via: { kind: 'command', name } });
const user = (id: string) => ({
  via: { kind: 'request', name: 'PATCH /api/documents/1' },
  resolveUser: async () => ({ type: 'user', id }),
});

/** Every event of a row, following the cursors. */
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

describe('MySQL history', () => {
  it("lists the row's own entries and the bulk writes that touched it, newest first, with their shapes", async () => {
    const via = (name: string) => ({ via: { kind: 'request', name }, resolveUser: async () => ({ type: 'user', id: '7' }) });
    const doc = await runInContext(via('POST /api/documents'), () => f.Document.create(newDocument(1, 7)));
    await runInContext(via(`PATCH /api/documents/${doc.id}`), () => f.Document.update(doc.id, { title: 'Second', status: 'published' }));
    await runInContext(via('POST /api/documents/archive'), () =>
      f.Document.query().where('status', '=', 'published').update({ status: 'archived' }),
    );
    await withActor({ type: 'admin', id: '1' }, () => f.Document.delete(doc.id));
    await f.log.record({ action: 'documents.flagged', subject: { type: 'documents', id: doc.id }, details: { reason: 'spam' } });
    const page = await readHistory(f.database.db, 'documents', String(doc.id));
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

  it('pages across bulk and single entries without gaps or repeats; a last full page is followed by an empty one', async () => {
    const doc = await f.Document.create(newDocument(1));
    await f.Document.create(newDocument(2));
    for (let i = 0; i < 29; i++) {
      await f.Document.update(doc.id, { title: `Title ${i}` });
      if (i % 2 === 0) await f.Document.query().update({ body: `Bulk ${i}` });
    }
    const { events, pages } = await allPages(doc.id, 15);
    expect(pages).toEqual([15, 15, 15, 0]);
    expect(events).toHaveLength(45);
    expect(events).toEqual((await f.Document.history(doc.id, { limit: 1000 })).events);
    expect(events.filter((e) => e.rows !== undefined)).toHaveLength(15);
    expect(events.at(-1)!.action).toBe('created');
    expect(events[0]).toMatchObject({ action: 'updated', rows: 2 });
    expect((await allPages(doc.id, 7)).pages).toEqual([7, 7, 7, 7, 7, 7, 3]);
  });

  it('at equal times lists single-row entries before bulk entries, pages through a tie, and keeps the microseconds in its cursor', async () => {
    const doc = await f.Document.create(newDocument(1));
    await f.Document.update(doc.id, { title: 'A' });
    await f.Document.query().update({ body: 'bulk' });
    await f.Document.update(doc.id, { title: 'B' });
    // The three latest entries at one time; the first a microsecond earlier.
    await sql`update audit_log set occurred_at = '2031-05-01 12:00:00.123456' where action = 'updated'`.execute(f.database.db);
    await sql`update audit_log set occurred_at = '2031-05-01 12:00:00.123455' where action = 'created'`.execute(f.database.db);
    await sql`update audit_bulk set occurred_at = '2031-05-01 12:00:00.123456'`.execute(f.database.db);
    const expected = ['updated:B', 'updated:A', 'bulk', 'created'];
    const label = (e: HistoryEvent) =>
      e.rows !== undefined ? 'bulk' : e.action === 'updated' ? `updated:${(e.changes!.new as { title: string }).title}` : e.action;
    expect((await f.Document.history(doc.id)).events.map(label)).toEqual(expected);
    const { events } = await allPages(doc.id, 1);
    expect(events.map(label)).toEqual(expected);
    const first = await f.Document.history(doc.id, { limit: 1 });
    const [at, kind] = JSON.parse(Buffer.from(first.next!, 'base64url').toString()) as [string, number];
    expect([at, kind]).toEqual(['2031-05-01T12:00:00.123456+00:00', 0]);
  });

  it('reads a cursor with another offset in UTC, and refuses one it did not make', async () => {
    const doc = await f.Document.create(newDocument(1));
    await sql`update audit_log set occurred_at = '2031-05-01 12:00:00'`.execute(f.database.db);
    const cursor = (at: string) => Buffer.from(JSON.stringify([at, 0, 999])).toString('base64url');
    expect((await f.Document.history(doc.id, { cursor: cursor('2031-05-01T14:00:00.5+02:00') })).events).toHaveLength(1);
    expect((await f.Document.history(doc.id, { cursor: cursor('2031-05-01T13:59:59+02:00') })).events).toHaveLength(0);
    await expect(f.Document.history(doc.id, { cursor: 'nope' })).rejects.toMatchObject({
      status: 400,
      code: 'BINDERY_AUDIT_CURSOR_INVALID',
    });
  });
});

describe('MySQL application events', () => {
  it('records an action, a subject and JSON details with the IP as AUDIT_IP says, inside a transaction or its own', async () => {
    const withIp = new AuditLog({ database: f.database, settings: { AUDIT_IP: 'full' } });
    await runInContext({ ...user('7'), requestId: 'req-5', ip: '2001:db8:85a3:8d3:1319:8a2e:370:7348' }, () =>
      withIp.record({ action: 'documents.exported', subject: { type: 'users', id: 7 }, details: { documents: 3, when: new Date(0) } }),
    );
    await expect(
      f.database.db.transaction().execute(async (trx) => {
        await f.log.record({ action: 'rolled.back' }, { db: trx });
        throw new Error('injected');
      }),
    ).rejects.toThrow('injected');
    const rows = await f.database.db.selectFrom('audit_log').selectAll().execute();
    expect(rows).toEqual([
      expect.objectContaining({
        action: 'documents.exported',
        actor_type: 'user',
        actor_id: '7',
        subject_type: 'users',
        subject_id: '7',
        request_id: 'req-5',
        ip: '2001:db8:85a3:8d3:1319:8a2e:370:7348',
        properties: { documents: 3, when: '1970-01-01T00:00:00.000Z' },
        changes: null,
      }),
    ]);
  });
});

describe('MySQL pruneAuditLog', () => {
  it('deletes entries and bulk entries (with their items) older than the retention, in batches, and records audit.pruned', async () => {
    const doc = await f.Document.create(newDocument(1));
    for (let i = 0; i < 4; i++) await f.Document.update(doc.id, { title: `T${i}` });
    await f.Document.query().update({ status: 'published' });
    await f.Document.query().update({ status: 'archived' });
    await sql`update audit_log set occurred_at = now(6) - interval 40 day where id <= 4`.execute(f.database.db);
    const oldBulk = (await f.database.db.selectFrom('audit_bulk').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    await sql`update audit_bulk set occurred_at = now(6) - interval 40 day where id = ${oldBulk}`.execute(f.database.db);
    const now = new Date();
    const result = await runInContext(command('audit:prune'), () => pruneAuditLog(f.log, { now, batchSize: 3 }));
    expect(result).toEqual({ before: new Date(now.getTime() - 30 * DAY), entries: 4, bulk: 1 });
    expect((await f.database.db.selectFrom('audit_log').select('action').orderBy('id').execute()).map((e) => e.action)).toEqual([
      'updated',
      'audit.pruned',
    ]);
    expect(await f.database.db.selectFrom('audit_bulk').select('id').execute()).toHaveLength(1);
    expect(await f.database.db.selectFrom('audit_bulk_items').select('bulk_id').where('bulk_id', '=', oldBulk).execute()).toEqual([]);
    expect(await f.database.db.selectFrom('audit_bulk_items').select('bulk_id').execute()).toHaveLength(1);
    const pruned = await f.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'audit.pruned').executeTakeFirstOrThrow();
    expect(pruned).toMatchObject({ via_name: 'audit:prune', properties: { before: result!.before.toISOString(), entries: 4, bulk: 1 } });
  });
});

describe('MySQL anonymizeActor', () => {
  it('replaces the user with "erased" in every entry and bulk entry and drops their IP addresses; other entries and values stay', async () => {
    const withIp = new AuditLog({ database: f.database, settings: { AUDIT_IP: 'full' } });
    const doc = await runInContext(user('42'), () => f.Document.create(newDocument(1, 42)));
    await runInContext(user('42'), () => f.Document.query().update({ status: 'published' }));
    await runInContext({ ...user('42'), ip: '203.0.113.9' }, () =>
      withIp.record({ action: 'documents.exported', subject: { type: 'users', id: 42 }, details: { documents: 1 } }),
    );
    await runInContext(user('43'), () => f.Document.update(doc.id, { title: 'By 43' }));
    await sql`update audit_bulk set ip = '203.0.113.9'`.execute(f.database.db);
    await sql`update audit_log set ip = '203.0.113.9' where action = 'created'`.execute(f.database.db);
    const result = await runInContext(command('audit:anonymize'), () => anonymizeActor(f.log, { type: 'user', id: '42' }));
    expect(result).toEqual({ entries: 2, bulk: 1 });
    const log = await f.database.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
    expect(log.map((e) => [e.action, e.actor_type, e.actor_id, e.ip])).toEqual([
      ['created', 'erased', null, null],
      ['documents.exported', 'erased', null, null],
      ['updated', 'user', '43', null],
      ['audit.anonymized', 'system', null, null],
    ]);
    expect(log[0]!.changes.new).toMatchObject({ owner_id: 42 });
    expect(log[3]).toMatchObject({ via_name: 'audit:anonymize', properties: { actor_type: 'user', entries: 3 } });
    expect(await f.database.db.selectFrom('audit_bulk').select(['actor_type', 'actor_id', 'ip']).execute()).toEqual([
      { actor_type: 'erased', actor_id: null, ip: null },
    ]);
    expect((await f.Document.history(doc.id)).events.map((e) => e.actor)).toEqual(['user:43', 'erased', 'erased']);
  });
});

describe('MySQL pruneSoftDeleted', () => {
  it('removes rows soft-deleted more than 30 days ago, 1,000 per transaction, one bulk force_deleted entry per batch', async () => {
    const rows = Array.from({ length: 2505 }, (_, i) => ({
      ...newDocument(i + 1),
      deleted_at: new Date(Date.now() - (i < 2500 ? 31 : 10) * DAY),
    }));
    for (let i = 0; i < rows.length; i += 1000)
      await f.database.db
        .insertInto('documents')
        .values(rows.slice(i, i + 1000))
        .execute();
    const dry = await runInContext(command('prune'), () => pruneSoftDeleted(f.log, { dryRun: true }));
    expect(dry[0]!.keys).toHaveLength(2500);
    const batches: number[] = [];
    const result = await runInContext(command('prune'), () => pruneSoftDeleted(f.log, { onBatch: (b) => batches.push(b.deleted) }));
    expect(result[0]).toMatchObject({ table: 'documents', deleted: 2500 });
    expect(batches).toEqual([1000, 1000, 500]);
    expect((await f.database.db.selectFrom('documents').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual([
      2501, 2502, 2503, 2504, 2505,
    ]);
    const entries = await f.database.db.selectFrom('audit_bulk').selectAll().orderBy('id').execute();
    expect(entries.map((e) => [e.action, e.row_count, e.via_name])).toEqual([
      ['force_deleted', 1000, 'prune'],
      ['force_deleted', 1000, 'prune'],
      ['force_deleted', 500, 'prune'],
    ]);
    expect(entries[0]!.where_clause).toEqual({ sql: '`deleted_at` is not null and `deleted_at` < ?', args: [expect.any(String)] });
    expect(await f.database.db.selectFrom('audit_bulk_items').select('bulk_id').execute()).toHaveLength(2500);
  });
});
