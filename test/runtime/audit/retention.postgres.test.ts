/**
 * Retention, erasure and the prune of soft-deleted rows (docs/spec.md 6.1 rules 11,
 * 12; docs/spec.md 3 "Document row | deleted | prune").
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anonymizeActor, AuditLog, pruneAuditLog, pruneSoftDeleted } from '../../../runtime/audit/index.js';
import { runInContext } from '../../../runtime/context/execution-context.js';
import { auditFixture, newDocument, type AuditFixture } from './support.js';

let f: AuditFixture;
beforeAll(async () => {
  f = await auditFixture({ AUDIT_RETENTION_DAYS: 30 });
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

describe('pruneAuditLog | AUDIT_RETENTION_DAYS', () => {
  it('deletes entries and bulk entries (with their items) older than the retention, in batches, and records audit.pruned', async () => {
    const doc = await f.Document.create(newDocument(1));
    for (let i = 0; i < 4; i++) await f.Document.update(doc.id, { title: `T${i}` });
    await f.Document.query().update({ status: 'published' });
    await f.Document.query().update({ status: 'archived' });
    // Age the first four entries and the first bulk entry by 40 days.
    await sql`update audit_log set occurred_at = now() - interval '40 days' where id <= 4`.execute(f.database.db);
    await sql`update audit_bulk set occurred_at = now() - interval '40 days' where id = (select min(id) from audit_bulk)`.execute(
      f.database.db,
    );
    const oldBulk = (await f.database.db.selectFrom('audit_bulk').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const now = new Date();
    const result = await runInContext(command('audit:prune'), () => pruneAuditLog(f.log, { now, batchSize: 3 }));
    expect(result).toEqual({ before: new Date(now.getTime() - 30 * DAY), entries: 4, bulk: 1 });
    expect((await f.database.db.selectFrom('audit_log').select(['action', 'id']).orderBy('id').execute()).map((e) => e.action)).toEqual([
      'updated',
      'audit.pruned',
    ]);
    expect(await f.database.db.selectFrom('audit_bulk').select('id').execute()).toHaveLength(1);
    expect(await f.database.db.selectFrom('audit_bulk_items').select('bulk_id').where('bulk_id', '=', oldBulk).execute()).toEqual([]);
    const pruned = await f.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'audit.pruned').executeTakeFirstOrThrow();
    expect(pruned).toMatchObject({
      actor_type: 'system',
      actor_id: null,
      via_kind: 'command',
      via_name: 'audit:prune',
      subject_type: null,
      properties: { before: result!.before.toISOString(), entries: 4, bulk: 1 },
    });
  });

  it('keeps everything and records nothing with AUDIT_RETENTION_DAYS=0', async () => {
    const doc = await f.Document.create(newDocument(1));
    await sql`update audit_log set occurred_at = now() - interval '4000 days'`.execute(f.database.db);
    expect(await pruneAuditLog(f.log, { retentionDays: 0 })).toBeNull();
    expect((await f.Document.history(doc.id)).events).toHaveLength(1);
    expect(await f.database.db.selectFrom('audit_log').selectAll().execute()).toHaveLength(1);
  });
});

describe('anonymizeActor | audit:anonymize user <id>', () => {
  it('replaces the user with "erased" in every entry and bulk entry and drops their IP addresses; other entries and values stay', async () => {
    const withIp = new AuditLog({ database: f.database, settings: { AUDIT_IP: 'full' } });
    const doc = await runInContext(user('42'), () => f.Document.create(newDocument(1, 42)));
    await runInContext(user('42'), () => f.Document.query().update({ status: 'published' }));
    await runInContext({ ...user('42'), ip: '203.0.113.9' }, () =>
      withIp.record({ action: 'documents.exported', subject: { type: 'users', id: 42 }, details: { documents: 1 } }),
    );
    await runInContext(user('43'), () => f.Document.update(doc.id, { title: 'By 43' }));
    await sql`update audit_bulk set ip = '203.0.113.9'`.execute(f.database.db);
    const result = await runInContext(command('audit:anonymize'), () => anonymizeActor(f.log, { type: 'user', id: '42' }));
    expect(result).toEqual({ entries: 2, bulk: 1 });
    const log = await f.database.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
    expect(log.map((e) => [e.action, e.actor_type, e.actor_id, e.ip])).toEqual([
      ['created', 'erased', null, null],
      ['documents.exported', 'erased', null, null],
      ['updated', 'user', '43', null],
      ['audit.anonymized', 'system', null, null],
    ]);
    // Entries about the person's own rows keep their values.
    expect(log[0]!.changes.new).toMatchObject({ owner_id: 42 });
    expect(log[1]).toMatchObject({ subject_type: 'users', subject_id: '42', properties: { documents: 1 } });
    expect(log[3]).toMatchObject({ via_name: 'audit:anonymize', properties: { actor_type: 'user', entries: 3 } });
    expect(await f.database.db.selectFrom('audit_bulk').select(['actor_type', 'actor_id', 'ip']).execute()).toEqual([
      { actor_type: 'erased', actor_id: null, ip: null },
    ]);
    expect((await f.Document.history(doc.id)).events.map((e) => e.actor)).toEqual(['user:43', 'erased', 'erased']);
  });
});

describe('pruneSoftDeleted | bindery prune', () => {
  it('removes rows soft-deleted more than 30 days ago, 1,000 per transaction, one bulk force_deleted entry per batch by system', async () => {
    const rows = Array.from({ length: 2505 }, (_, i) => ({
      ...newDocument(i + 1),
      deleted_at: new Date(Date.now() - (i < 2500 ? 31 : 10) * DAY),
    }));
    for (let i = 0; i < rows.length; i += 1000)
      await f.database.db
        .insertInto('documents')
        .values(rows.slice(i, i + 1000))
        .execute();
    await f.database.db
      .insertInto('documents')
      .values([newDocument(3001), newDocument(3002)])
      .execute();
    const dry = await runInContext(command('prune'), () => pruneSoftDeleted(f.log, { dryRun: true }));
    expect(dry).toHaveLength(1);
    expect(dry[0]).toMatchObject({ model: 'Document', table: 'documents', deleted: 0 });
    expect(dry[0]!.keys).toHaveLength(2500);
    expect(await f.database.db.selectFrom('documents').select('id').execute()).toHaveLength(2507);
    expect(await f.database.db.selectFrom('audit_bulk').select('id').execute()).toEqual([]);

    const batches: number[] = [];
    const result = await runInContext(command('prune'), () => pruneSoftDeleted(f.log, { onBatch: (b) => batches.push(b.deleted) }));
    expect(result[0]).toMatchObject({ table: 'documents', deleted: 2500 });
    expect(batches).toEqual([1000, 1000, 500]);
    const left = await f.database.db.selectFrom('documents').select(['id', 'deleted_at']).orderBy('id').execute();
    expect(left.map((r) => r.id)).toEqual([2501, 2502, 2503, 2504, 2505, 2506, 2507]);
    const entries = await f.database.db.selectFrom('audit_bulk').selectAll().orderBy('id').execute();
    expect(entries.map((e) => [e.action, e.row_count, e.actor_type, e.via_kind, e.via_name])).toEqual([
      ['force_deleted', 1000, 'system', 'command', 'prune'],
      ['force_deleted', 1000, 'system', 'command', 'prune'],
      ['force_deleted', 500, 'system', 'command', 'prune'],
    ]);
    expect(entries[0]!.where_clause).toEqual({ sql: '"deleted_at" is not null and "deleted_at" < $1', args: [expect.any(String)] });
    expect(await f.database.db.selectFrom('audit_bulk_items').select('bulk_id').execute()).toHaveLength(2500);
  });

  it('registers only soft-delete models with a positive period', () => {
    expect(() => f.log.registerPrunable('Tag', '30d')).toThrow(expect.objectContaining({ code: 'BINDERY_AUDIT_MODEL_INVALID' }));
    expect(() => f.log.registerPrunable('Document', 'soon')).toThrow(expect.objectContaining({ code: 'BINDERY_AUDIT_MODEL_INVALID' }));
    expect(() => f.log.registerPrunable('Nope', '1d')).toThrow(
      expect.objectContaining({ message: expect.stringContaining('No tracked model is named "Nope"') }),
    );
  });
});
