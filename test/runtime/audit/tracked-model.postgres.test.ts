/**
 * Single-row writes through a tracked model (docs/spec.md 6.1 table and rules 1, 2,
 * 4, 9; docs/spec.md 3 document-row transitions), observed in the tables.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog, resolveModelForTest } from './model-access.js';
import { runInContext, withActor } from '../../../runtime/context/execution-context.js';
import { auditFixture, newDocument, tagsConfig, type AuditFixture } from './support.js';

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

const entries = () => f.database.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
const row = (id: number) => f.database.db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirst();

describe('TrackedModel | create', () => {
  it('inserts the row and writes one "created" entry with its values (view_count excluded, share_token redacted)', async () => {
    const doc = await f.Document.create(newDocument(1, 7, { share_token: 'secret-share', view_count: 3 }));
    expect(doc).toMatchObject({
      id: 1,
      owner_id: 7,
      slug: 'doc-1',
      status: 'draft',
      share_token: 'secret-share',
      view_count: 3,
      deleted_at: null,
    });
    expect(doc.created_at).toBeInstanceOf(Date);
    const [entry, ...rest] = await entries();
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      action: 'created',
      subject_type: 'documents',
      subject_id: '1',
      actor_type: 'system',
      actor_id: null,
      via_kind: null,
      ip: null,
      properties: null,
    });
    expect(entry!.changes.old).toBeUndefined();
    expect(entry!.changes.new).toMatchObject({
      id: 1,
      owner_id: 7,
      slug: 'doc-1',
      title: 'Document 1',
      body: 'Body 1',
      status: 'draft',
      share_token: '[redacted]',
      deleted_at: null,
    });
    expect(entry!.changes.new).not.toHaveProperty('view_count');
    expect(JSON.stringify(entry)).not.toContain('secret-share');
  });

  it('writes nothing when the insert fails (duplicate live slug)', async () => {
    await f.Document.create(newDocument(1));
    await expect(f.Document.create(newDocument(1))).rejects.toMatchObject({ code: '23505', constraint: 'documents_slug_live_key' });
    expect(await entries()).toHaveLength(1);
  });
});

describe('TrackedModel | update', () => {
  it('records the old and new values of the changed columns only; never the timestamps', async () => {
    const doc = await f.Document.create(newDocument(1));
    const updated = await f.Document.update(doc.id, { title: 'New title', status: 'published', body: 'Body 1' });
    expect(updated).toMatchObject({ title: 'New title', status: 'published' });
    expect(updated!.updated_at.getTime()).toBeGreaterThanOrEqual(doc.updated_at.getTime());
    const entry = (await entries())[1]!;
    expect(entry).toMatchObject({ action: 'updated', subject_id: String(doc.id) });
    expect(entry.changes).toEqual({ old: { title: 'Document 1', status: 'draft' }, new: { title: 'New title', status: 'published' } });
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
      await waitForLockWait(f);
    });
    await pending;
    const entry = (await entries()).at(-1)!;
    expect(entry.changes).toEqual({ old: { title: 'held by another transaction' }, new: { title: 'after the lock' } });
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

describe('TrackedModel | delete, restore, force delete (docs/spec.md 3 "Document row")', () => {
  it('live → deleted: Delete sets the marker, keeps the row, entry "deleted"; a second Delete finds nothing', async () => {
    const doc = await f.Document.create(newDocument(1));
    const deleted = await f.Document.delete(doc.id);
    expect(deleted!.deleted_at).toBeInstanceOf(Date);
    expect((await row(doc.id))!.deleted_at).toBeInstanceOf(Date);
    expect(await f.Document.delete(doc.id)).toBeUndefined();
    const log = await entries();
    expect(log.map((e) => [e.action, e.changes])).toEqual([
      ['created', expect.anything()],
      ['deleted', null],
    ]);
  });

  it('deleted → live: Restore clears the marker, entry "restored"; restoring a live row finds nothing', async () => {
    const doc = await f.Document.create(newDocument(1));
    await f.Document.delete(doc.id);
    expect(await f.Document.restore(doc.id)).toMatchObject({ id: doc.id, deleted_at: null });
    expect(await f.Document.restore(doc.id)).toBeUndefined();
    expect((await entries()).map((e) => e.action)).toEqual(['created', 'deleted', 'restored']);
  });

  it('live or deleted → gone: ForceDelete removes the row, entry "force_deleted" with the values it had', async () => {
    const live = await f.Document.create(newDocument(1, 1, { share_token: 'tok' }));
    const gone = await f.Document.create(newDocument(2));
    await f.Document.delete(gone.id);
    expect(await f.Document.forceDelete(live.id)).toMatchObject({ id: live.id });
    expect(await f.Document.forceDelete(gone.id)).toMatchObject({ id: gone.id });
    expect(await row(live.id)).toBeUndefined();
    expect(await row(gone.id)).toBeUndefined();
    const forced = (await entries()).filter((e) => e.action === 'force_deleted');
    expect(forced.map((e) => e.subject_id)).toEqual([String(live.id), String(gone.id)]);
    expect(forced[0]!.changes).toEqual({
      old: expect.objectContaining({ id: live.id, slug: 'doc-1', title: 'Document 1', share_token: '[redacted]', deleted_at: null }),
    });
    expect(forced[1]!.changes.old.deleted_at).toEqual(expect.any(String));
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

describe('TrackedModel | transactions (docs/spec.md 6.1 rule 1)', () => {
  it("a write rolled back with the caller's transaction leaves neither the change nor its entry", async () => {
    const doc = await f.Document.create(newDocument(1));
    await expect(
      f.database.db.transaction().execute(async (trx) => {
        await f.Document.using(trx).update(doc.id, { title: 'rolled back' });
        expect(await trx.selectFrom('audit_log').select('action').where('action', '=', 'updated').execute()).toHaveLength(1);
        throw new Error('injected after the write');
      }),
    ).rejects.toThrow('injected after the write');
    expect((await row(doc.id))!.title).toBe('Document 1');
    expect((await entries()).map((e) => e.action)).toEqual(['created']);
  });

  it('a failure while writing the entry (after the write) rolls the write back', async () => {
    const doc = await f.Document.create(newDocument(1));
    await sql`create function fail_entry() returns trigger language plpgsql as $$ begin if new.changes -> 'new' ->> 'title' = 'boom' then raise exception 'entry refused'; end if; return new; end $$`.execute(
      f.database.db,
    );
    await sql`create trigger fail_entry before insert on audit_log for each row execute function fail_entry()`.execute(f.database.db);
    try {
      await expect(f.Document.update(doc.id, { title: 'boom' })).rejects.toThrow('entry refused');
    } finally {
      await sql`drop trigger fail_entry on audit_log; drop function fail_entry()`.execute(f.database.db);
    }
    expect((await row(doc.id))!.title).toBe('Document 1');
    expect((await entries()).map((e) => e.action)).toEqual(['created']);
  });

  it("runs in a savepoint inside the caller's transaction: a failed write can be caught and the rest commits with its entries", async () => {
    await f.database.db.transaction().execute(async (trx) => {
      const Document = f.Document.using(trx);
      await Document.create(newDocument(1));
      await expect(Document.create(newDocument(1))).rejects.toMatchObject({ code: '23505' });
      await Document.create(newDocument(2));
    });
    expect((await f.database.db.selectFrom('documents').select('slug').orderBy('id').execute()).map((r) => r.slug)).toEqual([
      'doc-1',
      'doc-2',
    ]);
    expect((await entries()).map((e) => [e.action, e.subject_id])).toEqual([
      ['created', '1'],
      ['created', '3'],
    ]);
  });

  it('every committed change has its entry: 20 writes, 20 entries', async () => {
    const doc = await f.Document.create(newDocument(1));
    for (let i = 0; i < 19; i++) await f.Document.update(doc.id, { title: `Title ${i}` });
    expect(await entries()).toHaveLength(20);
  });
});

describe('TrackedModel | refused writes (docs/spec.md 6.1 rule 9)', () => {
  it('refuses a key longer than 255 bytes and writes nothing', async () => {
    const name = 'é'.repeat(128); // 256 bytes
    await expect(f.Tag.create({ name, label: 'long' })).rejects.toMatchObject({ code: 'BINDERY_AUDIT_KEY_TOO_LONG' });
    await expect(f.Tag.update(name, { label: 'x' })).rejects.toMatchObject({ code: 'BINDERY_AUDIT_KEY_TOO_LONG' });
    expect(await f.database.db.selectFrom('tags').selectAll().execute()).toEqual([]);
    await f.Tag.create({ name: 'é'.repeat(127) + 'x', label: '255 bytes is fine' });
    expect(await entries()).toHaveLength(1);
  });

  it('refuses an actor ID longer than 100 bytes', async () => {
    await expect(withActor({ type: 'user', id: '7'.repeat(101) }, () => f.Document.create(newDocument(1)))).rejects.toMatchObject({
      code: 'BINDERY_AUDIT_ACTOR_TOO_LONG',
    });
    expect(await f.database.db.selectFrom('documents').selectAll().execute()).toEqual([]);
    await withActor({ type: 'user', id: '7'.repeat(100) }, () => f.Document.create(newDocument(1)));
    expect((await entries())[0]!.actor_id).toHaveLength(100);
  });

  it('refuses to change the key of a tracked row, one row or many (entries name rows by key)', async () => {
    const doc = await f.Document.create(newDocument(1));
    await expect(f.Document.update(doc.id, { id: 99 })).rejects.toMatchObject({
      code: 'BINDERY_AUDIT_MODEL_INVALID',
      message: expect.stringContaining('cannot be changed'),
    });
    await expect(f.Document.query().update({ id: 99 })).rejects.toMatchObject({ code: 'BINDERY_AUDIT_MODEL_INVALID' });
    expect(await row(doc.id)).toBeDefined();
    expect(await entries()).toHaveLength(1);
  });

  it('tracks a table once per database', () => {
    expect(() => f.log.track(tagsConfig)).toThrow(
      expect.objectContaining({ code: 'BINDERY_AUDIT_MODEL_INVALID', message: expect.stringContaining('already tracked') }),
    );
    const other = new AuditLog({ database: f.database });
    expect(() => other.track(tagsConfig)).toThrow(expect.objectContaining({ code: 'BINDERY_AUDIT_MODEL_INVALID' }));
  });

  it('needs a primary key, and known columns', () => {
    expect(() => resolveModelForTest({ ...tagsConfig, table: 'keyless', primaryKey: null })).toThrow(
      expect.objectContaining({ code: 'BINDERY_AUDIT_MODEL_INVALID', message: expect.stringContaining('no primary key') }),
    );
    expect(() => resolveModelForTest({ ...tagsConfig, table: 'other', except: ['nope'] })).toThrow(
      expect.objectContaining({ message: expect.stringContaining('"nope"') }),
    );
  });
});

describe('TrackedModel | redaction (docs/spec.md 6.1 rule 4)', () => {
  it('redacts names containing password, secret or token unless revealed, and Redact columns; leaves out Except columns', async () => {
    const account = await f.Account.create({
      email: 'a@example.com',
      password: 'hash',
      api_secret: 's3',
      remember_token: 'rt',
      reset_token: 'visible',
      notes: 'private',
      login_count: 5,
    });
    await f.Account.update(account.id, { password: 'hash2', reset_token: 'visible2', notes: null, email: 'b@example.com', login_count: 6 });
    const [created, updated] = await entries();
    expect(created!.changes.new).toEqual({
      id: account.id,
      email: 'a@example.com',
      password: '[redacted]',
      api_secret: '[redacted]',
      remember_token: '[redacted]',
      reset_token: 'visible',
      notes: '[redacted]',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(updated!.changes).toEqual({
      old: { email: 'a@example.com', password: '[redacted]', reset_token: 'visible', notes: '[redacted]' },
      new: { email: 'b@example.com', password: '[redacted]', reset_token: 'visible2', notes: null },
    });
    expect(JSON.stringify([created, updated])).not.toMatch(/hash|s3|"rt"|private/);
  });
});

describe('TrackedModel | attribution (docs/spec.md 5.8)', () => {
  const user = (id: string) => ({ type: 'user', id });
  const via = { kind: 'request', name: 'PATCH /api/documents/1' };

  it('explicit actor, then the signed-in user, then the origin of queued work, then system', async () => {
    const context = { via, requestId: 'req-1', resolveUser: async () => user('5'), origin: user('9') };
    await runInContext(context, () => withActor({ type: 'admin', id: '1' }, () => f.Document.create(newDocument(1))));
    await runInContext(context, () => f.Document.create(newDocument(2)));
    await runInContext({ via: { kind: 'job', name: 'app:import' }, resolveUser: async () => null, origin: user('9') }, () =>
      f.Document.create(newDocument(3)),
    );
    await runInContext({ via: { kind: 'command', name: 'prune' } }, () => f.Document.create(newDocument(4)));
    await f.Document.create(newDocument(5));
    expect((await entries()).map((e) => [e.actor_type, e.actor_id, e.via_kind, e.via_name, e.request_id])).toEqual([
      ['admin', '1', 'request', 'PATCH /api/documents/1', 'req-1'],
      ['user', '5', 'request', 'PATCH /api/documents/1', 'req-1'],
      ['user', '9', 'job', 'app:import', null],
      ['system', null, 'command', 'prune', null],
      ['system', null, null, null, null],
    ]);
  });

  it('fails the write when the signed-in user cannot be loaded', async () => {
    const context = {
      via,
      resolveUser: async () => {
        throw new Error('user 5 cannot be loaded');
      },
    };
    await expect(runInContext(context, () => f.Document.create(newDocument(1)))).rejects.toThrow('user 5 cannot be loaded');
    expect(await f.database.db.selectFrom('documents').selectAll().execute()).toEqual([]);
    expect(await entries()).toEqual([]);
  });
});

/** Wait until some backend waits for a row lock. */
async function waitForLockWait(fixture: AuditFixture): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(
      fixture.database.db,
    );
    if (rows[0]!.n > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no backend started waiting for the row lock within 10 s');
}
