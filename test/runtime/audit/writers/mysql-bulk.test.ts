/**
 * Bulk writes on MySQL and MariaDB (docs/spec.md 2.5, 6.1 rules 3, 5, 6, 7;
 * docs/audit.md "Bulk writes", "Engines"), on the run's MariaDB: the keys
 * locked first, chunks of 1,000 keys (`… where key in (…)`), one bulk entry,
 * every touched key an item, and a chunk that changed fewer rows than it
 * holds failing the whole write.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TrackedModel, TrackedResourceConfig } from '../../../../runtime/audit/index.js';
import { runInContext } from '../../../../runtime/context/execution-context.js';
import { auditFixture, newDocument, type AuditFixture } from '../support.js';

let f: AuditFixture;
let sent: string[] = [];
// A small AUDIT_BULK_MAX_VALUES so a 2,500-row write shows the limit.
beforeAll(async () => {
  f = await auditFixture({ AUDIT_BULK_MAX_VALUES: 1200 }, { engine: 'mariadb' });
  f.database.engine.observe({
    queryStarted(text) {
      sent.push(text);
      return undefined;
    },
  });
});
afterAll(async () => {
  await f?.close();
});
beforeEach(async () => {
  await f.reset();
  sent = [];
});

const bulkEntries = () => f.database.db.selectFrom('audit_bulk').selectAll().orderBy('id').execute();
const items = (bulkId: number) =>
  f.database.db.selectFrom('audit_bulk_items').select(['subject_type', 'subject_id']).where('bulk_id', '=', bulkId).execute();
const allItems = () => f.database.db.selectFrom('audit_bulk_items').selectAll().execute();
const singleEntries = () => f.database.db.selectFrom('audit_log').selectAll().where('action', '!=', 'created').execute();
const statuses = async () => (await f.database.db.selectFrom('documents').select('status').orderBy('id').execute()).map((r) => r.status);

/** Insert `n` documents directly (not logged), ids 1..n. */
async function seed(n: number, values: (i: number) => Record<string, unknown> = () => ({})): Promise<void> {
  const rows = Array.from({ length: n }, (_, i) => ({ ...newDocument(i + 1), ...values(i + 1) }));
  for (let i = 0; i < rows.length; i += 1000)
    await f.database.db
      .insertInto('documents')
      .values(rows.slice(i, i + 1000) as never)
      .execute();
}

/** How many keys each statement starting with `prefix` named (its placeholders). */
const keysPerStatement = (prefix: string) => sent.filter((t) => t.startsWith(prefix)).map((t) => t.split('?').length - 1);

describe('MySQL bulk | update', () => {
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
    expect(new Set(await statuses())).toEqual(new Set(['archived']));
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
      where_clause: { sql: '`deleted_at` is null and `owner_id` = ?', args: [3] },
      assignments: { status: 'archived', title: { sql: 'upper(title)', args: [] } },
    });
    expect(Object.keys(entry!.values_before)).toHaveLength(1200);
    expect(entry!.values_before['1']).toEqual({ status: 'draft', title: 'Document 1' });
    expect(entry!.values_before['2']).toEqual({ status: 'published', title: 'Document 2' });
    expect(entry!.values_before['1201']).toBeUndefined();
    expect(entry!.values_after['2']).toEqual({ status: 'archived', title: 'DOCUMENT 2' });
    const touched = await items(entry!.id);
    expect(touched).toHaveLength(2500);
    expect(new Set(touched.map((t) => t.subject_id)).size).toBe(2500);
    expect(touched.every((t) => t.subject_type === 'documents')).toBe(true);
    expect(await singleEntries()).toEqual([]);
    // The keys were selected FOR UPDATE first, then written by chunks of at most 1,000.
    expect(sent.some((t) => /^select `id` from `documents` where .* order by `id` for update$/.test(t))).toBe(true);
    // One placeholder for the status, then the chunk's keys.
    expect(keysPerStatement('update `documents` set')).toEqual([1001, 1001, 501]);
  });

  it('writes but does not log an update of excluded columns only (timestamps included), its limit in the update itself', async () => {
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
    expect(await allItems()).toEqual([]);
  });

  it('keeps every value when the rows fit AUDIT_BULK_MAX_VALUES; only assigned columns, redacted as they should be; condition arguments redacted', async () => {
    await seed(3, (i) => ({ share_token: `tok-${i}` }));
    await f.Document.query().update({ share_token: 'new', status: 'published' });
    await f.Document.query().where('share_token', '=', 'new').where('owner_id', '=', 1).update({ status: 'draft' });
    const [entry, redacted] = await bulkEntries();
    expect(entry).toMatchObject({ values_complete: true, row_count: 3, assignments: { share_token: '[redacted]', status: 'published' } });
    expect(entry!.values_before).toEqual({
      1: { share_token: '[redacted]', status: 'draft' },
      2: { share_token: '[redacted]', status: 'draft' },
      3: { share_token: '[redacted]', status: 'draft' },
    });
    expect(JSON.stringify(entry)).not.toContain('tok-');
    expect(redacted!.where_clause).toEqual({
      sql: '`deleted_at` is null and `share_token` = ? and `owner_id` = ?',
      args: ['[redacted]', '[redacted]'],
    });
  });
});

describe('MySQL bulk | delete, restore, force delete', () => {
  it('soft-deletes live rows, restores deleted ones, force-deletes with the values they had', async () => {
    await seed(4);
    expect(await f.Document.query().where('id', '<=', 3).delete()).toBe(3);
    expect(await f.Document.query().delete()).toBe(1);
    expect(await f.Document.query().where('id', '=', 2).restore()).toBe(1);
    expect(await f.Document.query().withDeleted().where('id', 'in', [1, 2]).forceDelete()).toBe(2);
    const left = await f.database.db.selectFrom('documents').select(['id', 'deleted_at']).orderBy('id').execute();
    expect(left.map((r) => [r.id, r.deleted_at === null])).toEqual([
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
    expect(entries[0]!.values_after['1']).toEqual({ deleted_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+\+00:00$/) });
    expect(entries[2]!.values_after['2']).toEqual({ deleted_at: null });
    expect(entries[3]!.values_before['1']).toMatchObject({ id: 1, slug: 'doc-1', title: 'Document 1', deleted_at: expect.any(String) });
    expect(entries[3]!.values_before['1']).not.toHaveProperty('view_count');
    expect(entries[3]!.assignments).toBeNull();
    expect((await items(entries[3]!.id)).map((i) => i.subject_id).sort()).toEqual(['1', '2']);
  });

  it('force-deletes 2,500 rows in chunks of 1,000', async () => {
    await seed(2500);
    expect(await f.Document.query().withDeleted().forceDelete()).toBe(2500);
    expect(keysPerStatement('delete from `documents`')).toEqual([1000, 1000, 500]);
    const [entry] = await bulkEntries();
    expect(entry).toMatchObject({ action: 'force_deleted', row_count: 2500, values_complete: false });
    expect(Object.keys(entry!.values_before)).toHaveLength(1200);
    expect(await items(entry!.id)).toHaveLength(2500);
  });
});

describe('MySQL bulk | a chunk that changed fewer rows than it holds fails the whole write', () => {
  const nodesConfig: TrackedResourceConfig = {
    resource: 'Node',
    table: 'nodes',
    primaryKey: 'id',
    generatedKey: false,
    columns: ['id', 'parent_id'],
    softDelete: null,
    timestamps: null,
    hidden: [],
    except: [],
    redact: [],
    reveal: [],
  };
  let Node: TrackedModel;
  beforeAll(async () => {
    // A row deleted by a cascade, before its own chunk's delete reaches it, vanishes from the chunk.
    await f.database.engine.run(
      'CREATE TABLE nodes (id BIGINT PRIMARY KEY, parent_id BIGINT NULL, CONSTRAINT nodes_parent_fkey FOREIGN KEY (parent_id) REFERENCES nodes (id) ON DELETE CASCADE)',
    );
    Node = f.log.track(nodesConfig);
  });

  it('rolls everything back with a retryable error when a row of the second chunk vanished', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => ({ id: i + 1, parent_id: i + 1 === 1500 ? 1001 : null }));
    for (let i = 0; i < rows.length; i += 1000) {
      const chunk = rows.slice(i, i + 1000);
      await f.database.engine.run(
        `INSERT INTO nodes (id, parent_id) VALUES ${chunk.map(() => '(?, ?)').join(', ')}`,
        chunk.flatMap((r) => [r.id, r.parent_id]),
      );
    }
    const error = await Node.query()
      .forceDelete()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BINDERY_AUDIT_BULK_CONFLICT', status: 409, retryable: true });
    expect((error as Error).message).toContain('changed 999 of the 1000 rows');
    expect((await f.database.engine.run('SELECT id FROM nodes')).rows).toHaveLength(2500);
    expect(await bulkEntries()).toEqual([]);
    expect(await allItems()).toEqual([]);
    // Without the cascade, it goes through.
    await f.database.engine.run('UPDATE nodes SET parent_id = NULL');
    expect(await Node.query().forceDelete()).toBe(2500);
    expect((await bulkEntries()).map((e) => [e.action, e.row_count])).toEqual([['force_deleted', 2500]]);
  });
});

describe('MySQL bulk | createMany', () => {
  it('inserts 2,500 rows in chunks with one "created" entry, the server numbering the keys, every new key an item', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => newDocument(i + 1));
    expect(await f.Document.createMany(rows)).toBe(2500);
    expect(keysPerStatement('insert into `documents`')).toHaveLength(3);
    const [entry] = await bulkEntries();
    expect(entry).toMatchObject({ action: 'created', row_count: 2500, where_clause: null, values_before: null, values_complete: false });
    expect(Object.keys(entry!.values_after)).toHaveLength(1200);
    expect(entry!.values_after['1']).toEqual({ id: 1, owner_id: 1, slug: 'doc-1', title: 'Document 1', body: 'Body 1' });
    expect(entry!.values_after['1200']).toMatchObject({ id: 1200, slug: 'doc-1200' });
    const touched = (await items(entry!.id)).map((i) => Number(i.subject_id)).sort((a, b) => a - b);
    expect(touched).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
    // The keys recorded are the rows' own.
    const doc = await f.database.db.selectFrom('documents').select(['id', 'slug']).where('id', '=', 2345).executeTakeFirstOrThrow();
    expect(doc.slug).toBe('doc-2345');
  });

  it('takes rows with and without keys, and UUID keys made for them', async () => {
    await f.Document.create(newDocument(1));
    expect(await f.Document.createMany([newDocument(2), { ...newDocument(3), id: 50 }, newDocument(4)])).toBe(3);
    const ids = (await f.database.db.selectFrom('documents').select(['id', 'slug']).orderBy('id').execute()).map((r) => [r.id, r.slug]);
    expect(ids).toEqual([
      [1, 'doc-1'],
      [50, 'doc-3'],
      [51, 'doc-2'],
      [52, 'doc-4'],
    ]);
    const [entry] = await bulkEntries();
    expect(Object.keys(entry!.values_after).sort()).toEqual(['50', '51', '52']);
    expect(entry!.values_after['51']).toMatchObject({ slug: 'doc-2' });
    expect(await f.Gadget.createMany([{ name: 'a' }, { name: 'b', price: 3 }])).toBe(2);
    const gadgets = await f.database.db.selectFrom('gadgets').select(['id', 'name', 'price']).orderBy('name').execute();
    const gadgetEntry = (await bulkEntries())[1]!;
    expect(gadgetEntry.values_after[gadgets[0]!.id]).toEqual({ id: gadgets[0]!.id, name: 'a', price: 0 });
    expect(gadgetEntry.values_after[gadgets[1]!.id]).toEqual({ id: gadgets[1]!.id, name: 'b', price: 3 });
  });
});

describe('MySQL bulk | upsert', () => {
  it('inserts new rows and updates existing ones, with their values before', async () => {
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
    const desk = (await f.database.db.selectFrom('gadgets').select('id').where('name', '=', 'desk').executeTakeFirstOrThrow()).id;
    expect(entry).toMatchObject({
      action: 'upserted',
      row_count: 2,
      assignments: { price: { sql: 'values(`price`)', args: [] } },
      values_complete: true,
    });
    expect(entry!.values_before).toEqual({ [lamp]: { price: 10 } });
    expect(entry!.values_after).toEqual({ [lamp]: { id: lamp, name: 'lamp', price: 12 }, [desk]: { id: desk, name: 'desk', price: 80 } });
    expect((await items(entry!.id)).map((i) => i.subject_id).sort()).toEqual([lamp, desk].sort());
  });

  it('upserts 2,500 rows on the primary key in chunks of 1,000: 1,000 existing ones updated, the rest inserted', async () => {
    await seed(1000);
    const rows = Array.from({ length: 2500 }, (_, i) => ({ ...newDocument(i + 1), id: i + 1, title: `Upserted ${i + 1}` }));
    expect(await f.Document.upsert(rows, { update: ['title'] })).toBe(2500);
    expect((await f.database.db.selectFrom('documents').select('id').execute()).length).toBe(2500);
    const [entry] = await bulkEntries();
    expect(entry).toMatchObject({ action: 'upserted', row_count: 2500, values_complete: false });
    expect(Object.keys(entry!.values_before)).toHaveLength(1000);
    expect(entry!.values_before['7']).toEqual({ title: 'Document 7' });
    expect(entry!.values_after['7']).toMatchObject({ id: 7, title: 'Upserted 7' });
    expect(Object.keys(entry!.values_after)).toHaveLength(1200);
    expect(await items(entry!.id)).toHaveLength(2500);
  });

  it('fails whole when a chunk wrote fewer rows than it holds (two rows with the same conflict values)', async () => {
    await f.Gadget.create({ name: 'lamp', price: 10 });
    const error = await f.Gadget.upsert(
      [
        { name: 'desk', price: 1 },
        { name: 'desk', price: 2 },
        { name: 'lamp', price: 3 },
      ],
      { conflict: ['name'] },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'BINDERY_AUDIT_BULK_CONFLICT', message: expect.stringContaining('changed 2 of the 3 rows') });
    expect(await f.database.db.selectFrom('gadgets').select(['name', 'price']).execute()).toEqual([{ name: 'lamp', price: 10 }]);
    expect(await bulkEntries()).toEqual([]);
    expect(await allItems()).toEqual([]);
  });

  it('refuses an upsert on an index unique among live rows (docs/spec.md 7 rule 10), and on columns no unique key is made of', async () => {
    await f.Document.create(newDocument(1));
    const error = await f.Document.upsert([{ ...newDocument(1), title: 'x' }], { conflict: ['slug'] }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'AuditUpsertUniqueLiveError',
      code: 'BINDERY_AUDIT_UPSERT_UNIQUE_LIVE',
      message: expect.stringMatching(
        /documents matches rows on \(slug\), an index unique only among live rows.*no partial indexes.*Nothing was written/,
      ),
    });
    await expect(f.Gadget.upsert([{ name: 'lamp', price: 3 }], { conflict: ['price'] })).rejects.toMatchObject({
      code: 'BINDERY_AUDIT_MODEL_INVALID',
      message: expect.stringContaining('neither the primary key nor a unique index'),
    });
    expect(await f.database.db.selectFrom('documents').select('title').execute()).toEqual([{ title: 'Document 1' }]);
    expect(await f.database.db.selectFrom('gadgets').selectAll().execute()).toEqual([]);
    expect(await bulkEntries()).toEqual([]);
  });

  it('refuses a row without a value in a conflict column (docs/spec.md 6.1 rule 7)', async () => {
    await expect(f.Gadget.upsert([{ name: null as unknown as string, price: 2 }], { conflict: ['name'] })).rejects.toMatchObject({
      code: 'BINDERY_AUDIT_UPSERT_KEY_MISSING',
    });
    await expect(f.Document.upsert([newDocument(1)])).rejects.toMatchObject({ code: 'BINDERY_AUDIT_UPSERT_KEY_MISSING' });
  });
});

describe('MySQL bulk | transactions', () => {
  it("runs inside the caller's transaction and rolls back with it", async () => {
    await seed(5);
    await expect(
      f.database.db.transaction().execute(async (trx) => {
        expect(await f.Document.using(trx).query().update({ status: 'published' })).toBe(5);
        expect(await f.Document.using(trx).createMany([newDocument(6)])).toBe(1);
        throw new Error('injected after the write');
      }),
    ).rejects.toThrow('injected');
    expect(await bulkEntries()).toEqual([]);
    expect(await allItems()).toEqual([]);
    expect(await statuses()).toEqual(['draft', 'draft', 'draft', 'draft', 'draft']);
  });
});
