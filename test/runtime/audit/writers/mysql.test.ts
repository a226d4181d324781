/**
 * MySQL's audit writer on the run's MariaDB (docs/audit.md "Engines"):
 * each single-row write and its entry are statements of one transaction
 * (its own, or a savepoint of the caller's) that commit or roll back
 * together; an update reads the row FOR UPDATE first; the entry holds the
 * values as stored (read back after the write).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runInContext, withActor } from '../../../../runtime/context/execution-context.js';
import { isUniqueViolation } from '../../../../runtime/db/index.js';
import { writerFor } from '../../../../runtime/audit/writers/for-engine.js';
import { auditFixture, newDocument, type AuditFixture } from '../support.js';

let f: AuditFixture;
beforeAll(async () => {
  f = await auditFixture({ AUDIT_IP: 'masked' }, { engine: 'mariadb' });
});
afterAll(async () => {
  await f?.close();
});
beforeEach(async () => {
  await f.reset();
});

const entries = () => f.database.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
const row = (id: number) =>
  f.database.db.selectFrom('documents').select(['id', 'title', 'body', 'deleted_at', 'view_count']).where('id', '=', id).executeTakeFirst();

/** Wait until a statement of this database's sessions is held at a `FOR UPDATE` (waiting for the row lock). */
async function waitForLockWait(): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from information_schema.processlist
      where db = database() and id <> connection_id() and info like '%for update'`.execute(f.database.db);
    if (Number(rows[0]!.n) > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no statement started waiting for the row lock within 10 s');
}

describe('mysqlWriter | the strategy of MySQL and MariaDB', () => {
  it('is chosen for the engine', () => {
    expect(f.database.engine.name).toBe('mariadb');
    expect(writerFor(f.database.engine).engine).toBe('mariadb');
    expect(writerFor({ name: 'mysql' }).engine).toBe('mysql');
  });
});

describe('mysqlWriter | create', () => {
  it('inserts the row, reads it back by LAST_INSERT_ID() and writes one "created" entry with its stored values', async () => {
    const context = { via: { kind: 'request', name: 'POST /api/documents' }, requestId: 'r-1', ip: '203.0.113.77' };
    const doc = await runInContext({ ...context, resolveUser: async () => ({ type: 'user', id: '7' }) }, () =>
      f.Document.create(newDocument(1, 7, { share_token: 'secret-share', view_count: 3 })),
    );
    expect(doc).toMatchObject({
      id: 1,
      owner_id: 7,
      slug: 'doc-1',
      status: 'draft',
      share_token: 'secret-share',
      view_count: 3,
      deleted_at: null,
    });
    expect(doc).not.toHaveProperty('documents_slug_live_key');
    expect(doc.created_at).toBeInstanceOf(Date);
    const [entry, ...rest] = await entries();
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      action: 'created',
      subject_type: 'documents',
      subject_id: '1',
      actor_type: 'user',
      actor_id: '7',
      via_kind: 'request',
      via_name: 'POST /api/documents',
      request_id: 'r-1',
      ip: '203.0.113.0',
      properties: null,
    });
    expect(entry!.changes).toEqual({
      new: {
        id: 1,
        owner_id: 7,
        slug: 'doc-1',
        title: 'Document 1',
        body: 'Body 1',
        status: 'draft',
        share_token: '[redacted]',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?\+00:00$/),
        updated_at: expect.stringMatching(/\+00:00$/),
        deleted_at: null,
      },
    });
    // The time as stored, to the microsecond, as PostgreSQL's to_jsonb writes it.
    const stored = await sql<{ t: string }>`select date_format(created_at, '%Y-%m-%dT%H:%i:%s.%f') as t from documents`.execute(
      f.database.db,
    );
    expect(entry!.changes.new.created_at).toBe(`${stored.rows[0]!.t.replace(/\.?0+$/, '')}+00:00`);
  });

  it('makes a UUID for a generated UUID key, and keeps a given text key', async () => {
    const gadget = await f.Gadget.create({ name: 'lamp', price: 10 });
    expect(gadget.id).toMatch(/^[0-9a-f-]{36}$/);
    await f.Tag.create({ name: 'red', label: 'Red' });
    expect((await entries()).map((e) => [e.subject_id, e.changes])).toEqual([
      [gadget.id, { new: { id: gadget.id, name: 'lamp', price: 10 } }],
      ['red', { new: { name: 'red', label: 'Red' } }],
    ]);
  });

  it('writes nothing when the insert fails inside its transaction (a duplicate live slug)', async () => {
    await f.Document.create(newDocument(1));
    const error = await f.Document.create(newDocument(1)).catch((e: unknown) => e);
    expect(isUniqueViolation(error, 'documents_slug_live_key')).toBe(true);
    expect(await entries()).toHaveLength(1);
    // A deleted document's slug may be taken again (unique among live rows).
    await f.Document.delete(1);
    expect(await f.Document.create(newDocument(1))).toMatchObject({ slug: 'doc-1' });
  });

  it('keeps a 200 KB value whole in its entry', async () => {
    const body = 'é'.repeat(100_000) + 'x'.repeat(5_000);
    const doc = await f.Document.create(newDocument(1, 1, { body }));
    await f.Document.update(doc.id, { body: `${body}!` });
    const [created, updated] = await entries();
    expect(created!.changes.new.body).toBe(body);
    expect(Buffer.byteLength(created!.changes.new.body)).toBe(205_000);
    expect(updated!.changes).toEqual({ old: { body }, new: { body: `${body}!` } });
  });
});

describe('mysqlWriter | update and save', () => {
  it('records the old and new values of the changed columns only; never the timestamps', async () => {
    const doc = await f.Document.create(newDocument(1));
    const updated = await f.Document.update(doc.id, { title: 'New title', status: 'published', body: 'Body 1' });
    expect(updated).toMatchObject({ title: 'New title', status: 'published' });
    expect(updated!.updated_at.getTime()).toBeGreaterThanOrEqual(doc.updated_at.getTime());
    const entry = (await entries())[1]!;
    expect(entry).toMatchObject({ action: 'updated', subject_id: String(doc.id) });
    expect(entry.changes).toEqual({ old: { title: 'Document 1', status: 'draft' }, new: { title: 'New title', status: 'published' } });
    // jsonb's order of members, as on PostgreSQL: "new" before "old", shorter names first.
    const text = await sql<{ t: string }>`select cast(changes as char) as t from audit_log where id = ${entry.id}`.execute(f.database.db);
    expect(text.rows[0]!.t).toBe('{"new":{"title":"New title","status":"published"},"old":{"title":"Document 1","status":"draft"}}');
  });

  it('sets updated_at to the microsecond', async () => {
    const doc = await f.Document.create(newDocument(1));
    await f.Document.update(doc.id, { title: 'x' });
    const { rows } = await sql<{ f: string }>`select date_format(updated_at, '%f') as f from documents`.execute(f.database.db);
    expect(rows[0]!.f).toMatch(/^\d{6}$/);
    expect(rows[0]!.f).not.toBe('000000');
  });

  it('writes no entry for an update of timestamps only, of excluded columns only, or of equal values — but writes the row', async () => {
    const doc = await f.Document.create(newDocument(1));
    await f.Document.update(doc.id, { updated_at: new Date('2030-01-01T00:00:00Z') });
    await f.Document.update(doc.id, { view_count: 42 });
    await f.Document.update(doc.id, { title: 'Document 1' });
    expect((await entries()).map((e) => e.action)).toEqual(['created']);
    expect(await row(doc.id)).toMatchObject({ view_count: 42 });
  });

  it('records a changed share_token as [redacted] on both sides', async () => {
    const doc = await f.Document.create(newDocument(1, 1, { share_token: 'one' }));
    await f.Document.update(doc.id, { share_token: 'two' });
    expect((await entries())[1]!.changes).toEqual({ old: { share_token: '[redacted]' }, new: { share_token: '[redacted]' } });
  });

  it('answers undefined and writes nothing for an unknown key, a row outside the condition, or a soft-deleted row', async () => {
    const doc = await f.Document.create(newDocument(1, 7));
    await f.Document.create(newDocument(2, 7));
    await f.Document.delete(2);
    expect(await f.Document.update(999, { title: 'x' })).toBeUndefined();
    expect(await f.Document.update(doc.id, { title: 'x' }, { where: (eb) => eb('owner_id', '=', 8) })).toBeUndefined();
    expect(await f.Document.update(2, { title: 'x' })).toBeUndefined();
    expect((await entries()).map((e) => e.action)).toEqual(['created', 'created', 'deleted']);
    expect(await f.Document.update(2, { title: 'x' }, { withDeleted: true })).toMatchObject({ title: 'x' });
  });

  it('reads the row FOR UPDATE: the old values are what the database held when the lock was granted (docs/spec.md 6.1 rule 2)', async () => {
    const doc = await f.Document.create(newDocument(1));
    let pending: Promise<unknown> | undefined;
    await f.database.db.transaction().execute(async (trx) => {
      await trx.updateTable('documents').set({ title: 'held by another transaction' }).where('id', '=', doc.id).execute();
      pending = f.Document.update(doc.id, { title: 'after the lock' });
      await waitForLockWait();
    });
    await pending;
    expect((await entries()).at(-1)!.changes).toEqual({ old: { title: 'held by another transaction' }, new: { title: 'after the lock' } });
  });

  it('50 concurrent updates of one row leave a consistent old → new chain', async () => {
    const doc = await f.Document.create(newDocument(1));
    await Promise.all(Array.from({ length: 50 }, (_, i) => f.Document.update(doc.id, { title: `Title ${i}` })));
    const updates = (await entries()).filter((e) => e.action === 'updated');
    expect(updates).toHaveLength(50);
    let previous = 'Document 1';
    for (const entry of updates) {
      expect(entry.changes.old.title).toBe(previous);
      previous = entry.changes.new.title;
    }
    expect((await row(doc.id))!.title).toBe(previous);
    // The history lists them newest first, in the same chain.
    const page = await f.Document.history(doc.id, { limit: 60 });
    const titles = page.events.filter((e) => e.action === 'updated').map((e) => e.changes!.new!.title);
    expect(titles).toEqual(updates.map((e) => e.changes.new.title).reverse());
  });

  it('save(row) writes the row back by its key and records what changed', async () => {
    const doc = await f.Document.create(newDocument(1));
    const saved = await f.Document.save({ ...doc, title: 'Saved', body: 'New body' });
    expect(saved).toMatchObject({ title: 'Saved', body: 'New body' });
    expect((await entries())[1]!.changes).toEqual({
      old: { title: 'Document 1', body: 'Body 1' },
      new: { title: 'Saved', body: 'New body' },
    });
  });
});

describe('mysqlWriter | delete, restore, force delete', () => {
  it('live → deleted → live → gone, each with its entry; a second delete or restore finds nothing', async () => {
    const doc = await f.Document.create(newDocument(1, 1, { share_token: 'tok' }));
    const deleted = await f.Document.delete(doc.id);
    expect(deleted!.deleted_at).toBeInstanceOf(Date);
    expect(await f.Document.delete(doc.id)).toBeUndefined();
    expect(await f.Document.restore(doc.id)).toMatchObject({ id: doc.id, deleted_at: null });
    expect(await f.Document.restore(doc.id)).toBeUndefined();
    await f.Document.delete(doc.id);
    expect(await f.Document.forceDelete(doc.id)).toMatchObject({ id: doc.id });
    expect(await row(doc.id)).toBeUndefined();
    const log = await entries();
    expect(log.map((e) => [e.action, e.changes === null])).toEqual([
      ['created', false],
      ['deleted', true],
      ['restored', true],
      ['deleted', true],
      ['force_deleted', false],
    ]);
    expect(log[4]!.changes).toEqual({
      old: expect.objectContaining({ id: doc.id, slug: 'doc-1', share_token: '[redacted]', deleted_at: expect.stringMatching(/\+00:00$/) }),
    });
    expect(log[4]!.changes.old).not.toHaveProperty('view_count');
  });

  it('Delete on a model without soft delete is a force delete; Restore there is refused', async () => {
    await f.Tag.create({ name: 'red', label: 'Red' });
    expect(await f.Tag.delete('red')).toEqual({ name: 'red', label: 'Red' });
    expect((await entries()).map((e) => [e.action, e.changes])).toEqual([
      ['created', { new: { name: 'red', label: 'Red' } }],
      ['force_deleted', { old: { name: 'red', label: 'Red' } }],
    ]);
    await expect(f.Tag.restore('red')).rejects.toMatchObject({ code: 'BINDERY_AUDIT_MODEL_INVALID' });
  });
});

describe('mysqlWriter | transactions (docs/spec.md 6.1 rule 1)', () => {
  it("a write rolled back with the caller's transaction leaves neither the change nor its entry", async () => {
    const doc = await f.Document.create(newDocument(1));
    await expect(
      f.database.db.transaction().execute(async (trx) => {
        await f.Document.using(trx).update(doc.id, { title: 'rolled back' });
        await f.Document.using(trx).create(newDocument(2));
        expect(await trx.selectFrom('audit_log').select('action').execute()).toHaveLength(3);
        throw new Error('injected after the write');
      }),
    ).rejects.toThrow('injected after the write');
    expect((await row(doc.id))!.title).toBe('Document 1');
    expect(await row(2)).toBeUndefined();
    expect((await entries()).map((e) => e.action)).toEqual(['created']);
  });

  it('a failure while writing the entry (after the write) rolls the write back', async () => {
    const doc = await f.Document.create(newDocument(1));
    await f.database.engine.run(
      `create trigger fail_entry before insert on audit_log for each row begin if json_value(new.changes, '$.new.title') = 'boom' then signal sqlstate '45000' set message_text = 'entry refused'; end if; end`,
    );
    try {
      await expect(f.Document.update(doc.id, { title: 'boom' })).rejects.toThrow('entry refused');
    } finally {
      await f.database.engine.run('drop trigger fail_entry');
    }
    expect((await row(doc.id))!.title).toBe('Document 1');
    expect((await entries()).map((e) => e.action)).toEqual(['created']);
  });

  it("runs in a savepoint inside the caller's transaction: a failed write can be caught and the rest commits with its entries", async () => {
    await f.database.db.transaction().execute(async (trx) => {
      const Document = f.Document.using(trx);
      await Document.create(newDocument(1));
      const error = await Document.create(newDocument(1)).catch((e: unknown) => e);
      expect(isUniqueViolation(error)).toBe(true);
      await Document.create(newDocument(2));
    });
    expect((await f.database.db.selectFrom('documents').select('slug').orderBy('id').execute()).map((r) => r.slug)).toEqual([
      'doc-1',
      'doc-2',
    ]);
    expect((await entries()).map((e) => e.action)).toEqual(['created', 'created']);
  });
});

describe('mysqlWriter | refused writes and attribution', () => {
  it('refuses a key longer than 255 bytes and writes nothing; 255 bytes is fine', async () => {
    const name = 'é'.repeat(128);
    await expect(f.Tag.create({ name, label: 'long' })).rejects.toMatchObject({ code: 'BINDERY_AUDIT_KEY_TOO_LONG' });
    expect(await f.database.db.selectFrom('tags').selectAll().execute()).toEqual([]);
    await f.Tag.create({ name: 'é'.repeat(127) + 'x', label: '255 bytes is fine' });
    expect(await entries()).toHaveLength(1);
  });

  it('the table refuses a subject ID over 255 bytes by its CHECK constraint', async () => {
    await expect(
      f.database.engine.run('INSERT INTO audit_log (actor_type, action, subject_id) VALUES (?, ?, ?)', ['system', 'x', 'é'.repeat(128)]),
    ).rejects.toMatchObject({ message: expect.stringContaining('audit_log_subject_id_length') });
  });

  it('explicit actor, then the signed-in user, then the origin of queued work, then system', async () => {
    const user = (id: string) => ({ type: 'user', id });
    const via = { kind: 'request', name: 'PATCH /api/documents/1' };
    const context = { via, requestId: 'req-1', resolveUser: async () => user('5'), origin: user('9') };
    await runInContext(context, () => withActor({ type: 'admin', id: '1' }, () => f.Document.create(newDocument(1))));
    await runInContext(context, () => f.Document.create(newDocument(2)));
    await runInContext({ via: { kind: 'job', name: 'app:import' }, resolveUser: async () => null, origin: user('9') }, () =>
      f.Document.create(newDocument(3)),
    );
    await f.Document.create(newDocument(4));
    expect((await entries()).map((e) => [e.actor_type, e.actor_id, e.via_kind, e.via_name, e.request_id])).toEqual([
      ['admin', '1', 'request', 'PATCH /api/documents/1', 'req-1'],
      ['user', '5', 'request', 'PATCH /api/documents/1', 'req-1'],
      ['user', '9', 'job', 'app:import', null],
      ['system', null, null, null, null],
    ]);
  });
});
