/**
 * Query-level writes (docs/spec.md 2.5, 6.1 rules 3, 5, 6, 7): one bulk entry,
 * every touched key in audit_bulk_items, chunks of 1,000 keys.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runInContext } from '../../../runtime/context/execution-context.js';
import { auditFixture, newDocument, type AuditFixture } from './support.js';

let f: AuditFixture;
// A small AUDIT_BULK_MAX_VALUES so a 2,500-row write shows the limit.
beforeAll(async () => {
  f = await auditFixture({ AUDIT_BULK_MAX_VALUES: 1200 });
});
afterAll(async () => {
  await f?.close();
});
beforeEach(async () => {
  await f.reset();
});

const bulkEntries = () => f.database.db.selectFrom('audit_bulk').selectAll().orderBy('id').execute();
const items = (bulkId: number) =>
  f.database.db.selectFrom('audit_bulk_items').select(['subject_type', 'subject_id']).where('bulk_id', '=', bulkId).execute();
const singleEntries = () => f.database.db.selectFrom('audit_log').selectAll().where('action', '!=', 'created').execute();

/** Insert `n` documents directly (not logged), ids 1..n. */
async function seed(n: number, values: (i: number) => Record<string, unknown> = () => ({})): Promise<void> {
  const rows = Array.from({ length: n }, (_, i) => ({ ...newDocument(i + 1), ...values(i + 1) }));
  for (let i = 0; i < rows.length; i += 1000)
    await f.database.db
      .insertInto('documents')
      .values(rows.slice(i, i + 1000) as never)
      .execute();
}

describe('BulkQuery | update', () => {
  it('updates 2,500 rows in chunks of 1,000 with one bulk entry, every key an item, values before kept up to AUDIT_BULK_MAX_VALUES', async () => {
    await seed(2500, (i) => ({ status: i % 2 === 0 ? 'published' : 'draft', owner_id: 3 }));
    const n = await runInContext(
      {
        via: { kind: 'request', name: 'POST /api/documents/archive' },
        requestId: 'r-9',
        resolveUser: async () => ({ type: 'user', id: '3' }),
      },
      () => f.Document.query().where('owner_id', '=', 3).update({ status: 'archived', title: sql`upper(title)` }),
    );
    expect(n).toBe(2500);
    expect(await f.database.db.selectFrom('documents').select('id').where('status', '=', 'archived').execute()).toHaveLength(2500);
    const [entry, ...more] = await bulkEntries();
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      action: 'updated',
      subject_type: 'documents',
      row_count: 2500,
      actor_type: 'user',
      actor_id: '3',
      via_kind: 'request',
      via_name: 'POST /api/documents/archive',
      request_id: 'r-9',
      values_complete: false,
      where_clause: { sql: '"deleted_at" is null and "owner_id" = $1', args: [3] },
      assignments: { status: 'archived', title: { sql: 'upper(title)', args: [] } },
    });
    expect(Object.keys(entry!.values_before)).toHaveLength(1200);
    expect(entry!.values_before['1']).toEqual({ status: 'draft', title: 'Document 1' });
    expect(entry!.values_before['2']).toEqual({ status: 'published', title: 'Document 2' });
    expect(entry!.values_before['1201']).toBeUndefined();
    expect(entry!.values_after['2']).toEqual({ status: 'archived', title: 'DOCUMENT 2' });
    expect(entry!.values_before['1']).not.toHaveProperty('updated_at');
    const touched = await items(entry!.id);
    expect(touched).toHaveLength(2500);
    expect(new Set(touched.map((t) => t.subject_id)).size).toBe(2500);
    expect(touched.every((t) => t.subject_type === 'documents')).toBe(true);
    expect(await singleEntries()).toEqual([]);
  });

  it('writes the chunks as separate statements of at most 1,000 keys', async () => {
    await seed(2500);
    const seen: number[] = [];
    // A statement-level trigger records how many rows each UPDATE statement changed.
    await sql`create table chunk_sizes (n int)`.execute(f.database.db);
    await sql`create function count_chunk() returns trigger language plpgsql as $$ begin insert into chunk_sizes select count(*) from changed; return null; end $$`.execute(
      f.database.db,
    );
    await sql`create trigger count_chunk after update on documents referencing new table as changed for each statement execute function count_chunk()`.execute(
      f.database.db,
    );
    try {
      await f.Document.query().update({ body: 'chunked' });
      seen.push(...(await sql<{ n: number }>`select n from chunk_sizes`.execute(f.database.db)).rows.map((r) => r.n));
    } finally {
      await sql`drop trigger count_chunk on documents; drop table chunk_sizes; drop function count_chunk()`.execute(f.database.db);
    }
    expect(seen).toEqual([1000, 1000, 500]);
  });

  it('rolls everything back with a retryable error when a chunk changes fewer rows than it selected', async () => {
    await seed(2500);
    // A trigger that skips the update of row 1,500 (in the second chunk).
    await sql`create function skip_one() returns trigger language plpgsql as $$ begin if old.id = 1500 then return null; end if; return new; end $$`.execute(
      f.database.db,
    );
    await sql`create trigger skip_one before update on documents for each row execute function skip_one()`.execute(f.database.db);
    try {
      const error = await f.Document.query()
        .update({ status: 'archived' })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'BINDERY_AUDIT_BULK_CONFLICT', status: 409, retryable: true });
      expect((error as Error).message).toContain('changed 999 of the 1000 rows');
    } finally {
      await sql`drop trigger skip_one on documents; drop function skip_one()`.execute(f.database.db);
    }
    expect(await f.database.db.selectFrom('documents').select('id').where('status', '=', 'archived').execute()).toEqual([]);
    expect(await bulkEntries()).toEqual([]);
    expect(await f.database.db.selectFrom('audit_bulk_items').selectAll().execute()).toEqual([]);
    // Retried without the trigger, it goes through.
    expect(await f.Document.query().update({ status: 'archived' })).toBe(2500);
  });

  it('writes but does not log an update of excluded columns only (timestamps included)', async () => {
    await seed(3);
    expect(await f.Document.query().update({ view_count: 9 })).toBe(3);
    expect(await f.Document.query().limit(2).update({ view_count: 10, updated_at: new Date() })).toBe(2);
    expect((await f.database.db.selectFrom('documents').select('view_count').orderBy('id').execute()).map((r) => r.view_count)).toEqual([
      10, 10, 9,
    ]);
    expect(await bulkEntries()).toEqual([]);
  });

  it('records nothing when no row matches', async () => {
    await seed(3);
    expect(await f.Document.query().where('owner_id', '=', 99).update({ status: 'archived' })).toBe(0);
    expect(await bulkEntries()).toEqual([]);
  });

  it('keeps every value when the rows fit AUDIT_BULK_MAX_VALUES; only assigned columns, redacted as they should be', async () => {
    await seed(3, (i) => ({ share_token: `tok-${i}` }));
    await f.Document.query().update({ share_token: 'new', status: 'published' });
    const [entry] = await bulkEntries();
    expect(entry).toMatchObject({ values_complete: true, row_count: 3, assignments: { share_token: '[redacted]', status: 'published' } });
    expect(entry!.values_before).toEqual({
      1: { share_token: '[redacted]', status: 'draft' },
      2: { share_token: '[redacted]', status: 'draft' },
      3: { share_token: '[redacted]', status: 'draft' },
    });
    expect(JSON.stringify(entry)).not.toContain('tok-');
  });
});

describe('BulkQuery | condition redaction (docs/spec.md 6.1 rule 5)', () => {
  it('stores the arguments of a condition naming a hidden column as [redacted]', async () => {
    await seed(3, (i) => ({ share_token: `tok-${i}` }));
    await f.Document.query().where('share_token', '=', 'tok-2').where('owner_id', '=', 1).update({ status: 'published' });
    expect((await bulkEntries())[0]!.where_clause).toEqual({
      sql: '"deleted_at" is null and "share_token" = $1 and "owner_id" = $2',
      args: ['[redacted]', '[redacted]'],
    });
  });

  it('stores the arguments of a condition naming a redacted column as [redacted]', async () => {
    const account = await f.Account.create({ email: 'a@example.com', password: 'p', notes: 'n1' });
    await f.Account.query().where('notes', '=', 'n1').update({ email: 'b@example.com' });
    await f.Account.query().where('api_secret', 'is', null).where('id', '=', account.id).update({ email: 'c@example.com' });
    const [byNotes, bySecret] = await bulkEntries();
    expect(byNotes!.where_clause).toEqual({ sql: '"notes" = $1', args: ['[redacted]'] });
    expect(bySecret!.where_clause).toEqual({ sql: '"api_secret" is null and "id" = $1', args: ['[redacted]'] });
  });

  it('keeps the arguments of other conditions, and raw SQL text as written', async () => {
    await seed(3, (i) => ({ share_token: i === 3 ? 'literal' : null }));
    await f.Document.query().where('owner_id', 'in', [1, 2]).where(sql<boolean>`slug <> 'doc-9'`).update({ status: 'published' });
    await f.Document.query().where(sql<boolean>`share_token = 'literal'`).update({ status: 'archived' });
    const [plain, raw] = await bulkEntries();
    expect(plain!.where_clause).toEqual({ sql: '"deleted_at" is null and "owner_id" in ($1, $2) and slug <> \'doc-9\'', args: [1, 2] });
    expect(raw!.where_clause).toEqual({ sql: '"deleted_at" is null and share_token = \'literal\'', args: [] });
  });
});

describe('BulkQuery | delete, restore, force delete', () => {
  it('soft-deletes live rows (entry "deleted"), restores deleted ones (entry "restored"), force-deletes with the values they had', async () => {
    await seed(4);
    expect(await f.Document.query().where('id', '<=', 3).delete()).toBe(3);
    expect(await f.Document.query().delete()).toBe(1);
    expect(await f.Document.query().where('id', '=', 2).restore()).toBe(1);
    expect(await f.Document.query().withDeleted().where('id', 'in', [1, 2]).forceDelete()).toBe(2);
    expect(
      (await f.database.db.selectFrom('documents').select(['id', 'deleted_at']).orderBy('id').execute()).map((r) => [
        r.id,
        r.deleted_at === null,
      ]),
    ).toEqual([
      [3, false],
      [4, false],
    ]);
    const entries = await bulkEntries();
    expect(entries.map((e) => [e.action, e.row_count])).toEqual([
      ['deleted', 3],
      ['deleted', 1],
      ['restored', 1],
      ['force_deleted', 2],
    ]);
    expect(entries[0]!.values_before).toEqual({ 1: { deleted_at: null }, 2: { deleted_at: null }, 3: { deleted_at: null } });
    expect(entries[2]!.values_after['2']).toEqual({ deleted_at: null });
    expect(entries[3]!.values_before['1']).toMatchObject({ id: 1, slug: 'doc-1', title: 'Document 1', deleted_at: expect.any(String) });
    expect(entries[3]!.values_before['1']).not.toHaveProperty('view_count');
    expect(entries[3]!.assignments).toBeNull();
    expect((await items(entries[3]!.id)).map((i) => i.subject_id).sort()).toEqual(['1', '2']);
  });

  it('deletes on a model without soft delete by force', async () => {
    await f.Tag.createMany([
      { name: 'a', label: 'A' },
      { name: 'b', label: 'B' },
    ]);
    expect(await f.Tag.query().where('name', '=', 'a').delete()).toBe(1);
    expect((await bulkEntries()).map((e) => e.action)).toEqual(['created', 'force_deleted']);
  });
});

describe('TrackedModel | createMany and upsert', () => {
  it('createMany inserts in chunks with one "created" bulk entry and every new key as an item', async () => {
    const rows = Array.from({ length: 1500 }, (_, i) => newDocument(i + 1));
    expect(await f.Document.createMany(rows)).toBe(1500);
    const [entry] = await bulkEntries();
    expect(entry).toMatchObject({ action: 'created', row_count: 1500, where_clause: null, values_before: null, values_complete: false });
    expect(Object.keys(entry!.values_after)).toHaveLength(1200);
    expect(entry!.values_after['1']).toEqual({ id: 1, owner_id: 1, slug: 'doc-1', title: 'Document 1', body: 'Body 1' });
    expect(await items(entry!.id)).toHaveLength(1500);
  });

  it('upsert inserts new rows and updates existing ones, with their values before', async () => {
    await f.Gadget.create({ name: 'lamp', price: 10 });
    const n = await f.Gadget.upsert(
      [
        { name: 'lamp', price: 12 },
        { name: 'desk', price: 80 },
      ],
      { conflict: ['name'] },
    );
    expect(n).toBe(2);
    expect(await f.database.db.selectFrom('gadgets').select(['name', 'price']).orderBy('name').execute()).toEqual([
      { name: 'desk', price: 80 },
      { name: 'lamp', price: 12 },
    ]);
    const [entry] = await bulkEntries();
    const lamp = (await f.database.db.selectFrom('gadgets').select('id').where('name', '=', 'lamp').executeTakeFirstOrThrow()).id;
    expect(entry).toMatchObject({
      action: 'upserted',
      row_count: 2,
      assignments: { price: { sql: 'excluded."price"', args: [] } },
      values_complete: true,
    });
    expect(entry!.values_before).toEqual({ [lamp]: { price: 10 } });
    expect(entry!.values_after[lamp]).toEqual({ id: lamp, name: 'lamp', price: 12 });
    expect(await items(entry!.id)).toHaveLength(2);
  });

  it('upsert refuses a row without a value in a conflict column, and a zero or missing generated key (docs/spec.md 6.1 rule 7)', async () => {
    await expect(
      f.Gadget.upsert(
        [
          { name: 'ok', price: 1 },
          { name: null as unknown as string, price: 2 },
        ],
        { conflict: ['name'] },
      ),
    ).rejects.toMatchObject({ code: 'BINDERY_AUDIT_UPSERT_KEY_MISSING', message: expect.stringContaining('Row 2') });
    await expect(f.Document.upsert([{ ...newDocument(1), id: 0 }])).rejects.toMatchObject({
      code: 'BINDERY_AUDIT_UPSERT_KEY_MISSING',
      message: expect.stringContaining('generated key 0'),
    });
    await expect(f.Document.upsert([newDocument(1)])).rejects.toMatchObject({ code: 'BINDERY_AUDIT_UPSERT_KEY_MISSING' });
    expect(await f.database.db.selectFrom('gadgets').selectAll().execute()).toEqual([]);
    expect(await bulkEntries()).toEqual([]);
  });
});

describe('BulkQuery | transactions', () => {
  it("runs inside the caller's transaction and rolls back with it", async () => {
    await seed(5);
    await expect(
      f.database.db.transaction().execute(async (trx) => {
        expect(await f.Document.using(trx).query().update({ status: 'published' })).toBe(5);
        throw new Error('injected after the write');
      }),
    ).rejects.toThrow('injected');
    expect(await bulkEntries()).toEqual([]);
    expect(await f.database.db.selectFrom('audit_bulk_items').selectAll().execute()).toEqual([]);
    expect(await f.database.db.selectFrom('documents').select('id').where('status', '=', 'published').execute()).toEqual([]);
  });
});
