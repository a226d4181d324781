/**
 * Reverts of bulk entries and of requests as one unit (docs/audit.md
 * "Revert"), and the activity read — on the project's engine (PostgreSQL,
 * or MariaDB in the `mariadb` project).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  readActivity,
  readEntry,
  readTimeline,
  revertBulk,
  revertEntry,
  revertRequest,
  RevertConflictError,
  RevertRefusedError,
  AuditEntryNotFoundError,
} from '../../../runtime/audit/index.js';
import { runInContext } from '../../../runtime/context/execution-context.js';
import { trackedResources } from '../../../generated/audit.js';
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

const as = (requestId: string, name = 'POST /api/documents/archive') => ({
  via: { kind: 'request', name },
  requestId,
  actor: { type: 'user', id: '7' },
});

async function archiveAll(): Promise<string> {
  await runInContext(as('req-archive'), () => f.Document.query().where('status', '=', 'published').update({ status: 'archived' }));
  const page = await readActivity(f.database.db, trackedResources, { requestId: 'req-archive' });
  return page.events[0]!.ref.id;
}

async function statuses(): Promise<string[]> {
  const rows = await f.database.db.selectFrom('documents').select(['status']).orderBy('id').execute();
  return rows.map((r) => r.status);
}

describe('revert | a bulk entry', () => {
  it('puts every row of a bulk archive back in one new bulk entry "reverted"', async () => {
    for (let i = 1; i <= 3; i++) await f.Document.create(newDocument(i, 7, { status: 'published' }));
    const bulkId = await archiveAll();
    expect(await statuses()).toEqual(['archived', 'archived', 'archived']);

    const result = await runInContext(as('req-undo', 'POST /admin/audit/bulk/1/revert'), () => revertBulk(f.log, bulkId));
    expect(await statuses()).toEqual(['published', 'published', 'published']);
    expect(result.entries).toHaveLength(1);
    expect(result.entries[0]).toMatchObject({
      ref: { kind: 'bulk' },
      action: 'reverted',
      rows: 3,
      complete: true,
      requestId: 'req-undo',
      details: { reverted: { kind: 'bulk', id: bulkId }, performed: 'update' },
    });
    const bulks = await f.database.db.selectFrom('audit_bulk').select(['id']).execute();
    expect(bulks).toHaveLength(2);
    // Each row's timeline shows the revert with the row's own values.
    const ids = await f.database.db.selectFrom('documents').select('id').orderBy('id').execute();
    const timeline = await readTimeline(f.database.db, trackedResources, 'Document', ids[0]!.id);
    expect(timeline.events[0]).toMatchObject({ action: 'reverted', diff: [{ field: 'status', old: 'archived', new: 'published' }] });
    expect(timeline.events[1]).toMatchObject({ action: 'updated', diff: [{ field: 'status', old: 'published', new: 'archived' }] });

    // The revert can be reverted: archived again.
    await revertBulk(f.log, result.entries[0]!.ref.id);
    expect(await statuses()).toEqual(['archived', 'archived', 'archived']);
  });

  it('refuses, naming the rows, when some changed since; nothing is written', async () => {
    const docs = [];
    for (let i = 1; i <= 3; i++) docs.push(await f.Document.create(newDocument(i, 7, { status: 'published' })));
    const bulkId = await archiveAll();
    await f.Document.update(docs[1]!.id, { status: 'draft' });
    const error = (await revertBulk(f.log, bulkId).catch((e: unknown) => e)) as RevertConflictError;
    expect(error).toBeInstanceOf(RevertConflictError);
    expect(error.conflicts).toEqual([
      {
        resource: 'documents',
        id: String(docs[1]!.id),
        fields: [{ field: 'status', old: 'published', new: 'archived', current: 'draft' }],
      },
    ]);
    expect(error.message).toContain(`documents/${docs[1]!.id}`);
    expect(await statuses()).toEqual(['archived', 'draft', 'archived']);
    expect(await f.database.db.selectFrom('audit_bulk').select('id').execute()).toHaveLength(1);
  });

  it('refuses an entry that did not keep every row’s values', async () => {
    for (let i = 1; i <= 2; i++) await f.Document.create(newDocument(i, 7, { status: 'published' }));
    const bulkId = await archiveAll();
    await f.database.db.updateTable('audit_bulk').set({ values_complete: false }).where('id', '=', Number(bulkId)).execute();
    const error = (await revertBulk(f.log, bulkId).catch((e: unknown) => e)) as RevertRefusedError;
    expect(error).toBeInstanceOf(RevertRefusedError);
    expect(error.reasons.entry).toContain('did not keep the values of all its 2 rows');
    expect(await statuses()).toEqual(['archived', 'archived']);
  });

  it('a bulk delete is undone by restoring the rows, a bulk create by deleting them', async () => {
    for (let i = 1; i <= 2; i++) await f.Document.create(newDocument(i, 7));
    await runInContext(as('req-del'), () => f.Document.query().delete());
    const deleted = (await readActivity(f.database.db, trackedResources, { requestId: 'req-del' })).events[0]!;
    expect(deleted.action).toBe('deleted');
    await revertBulk(f.log, deleted.ref.id);
    expect(await f.Document.query().count()).toBe(2);

    await runInContext(as('req-many'), () => f.Document.createMany([newDocument(3, 7), newDocument(4, 7)]));
    const created = (await readActivity(f.database.db, trackedResources, { requestId: 'req-many' })).events[0]!;
    await revertEntry(f.log, created.ref);
    expect(await f.Document.query().count()).toBe(2);
  });

  it('a bulk force delete is undone by inserting the rows again', async () => {
    await f.Gadget.createMany([
      { name: 'a', price: 1 },
      { name: 'b', price: 2 },
    ]);
    await runInContext(as('req-force'), () => f.Gadget.query().forceDelete());
    const removed = (await readActivity(f.database.db, [], { requestId: 'req-force' })).events[0]!;
    await revertBulk(f.log, removed.ref.id);
    const rows = await f.database.db.selectFrom('gadgets').select(['name', 'price']).orderBy('name').execute();
    expect(rows).toEqual([
      { name: 'a', price: 1 },
      { name: 'b', price: 2 },
    ]);
  });
});

describe('revert | races', () => {
  it('two reverts of one bulk entry at once: one writes its bulk entry, the other is refused with 409', async () => {
    for (let i = 1; i <= 3; i++) await f.Document.create(newDocument(i, 7, { status: 'published' }));
    const bulkId = await archiveAll();
    const results = await Promise.allSettled([revertBulk(f.log, bulkId), revertBulk(f.log, bulkId)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(RevertConflictError);
    expect(await statuses()).toEqual(['published', 'published', 'published']);
    expect(await f.database.db.selectFrom('audit_bulk').select('id').execute()).toHaveLength(2);
  });
});

describe('revert | a request', () => {
  it('undoes every entry of one request ID, newest first, in one transaction', async () => {
    const doc = await runInContext(as('req-form', 'POST /documents'), async () => {
      const created = await f.Document.create(newDocument(1, 7));
      await f.Document.update(created.id, { title: 'Edited' });
      return created;
    });
    const other = await f.Document.create(newDocument(2, 7));
    const result = await runInContext(as('req-undo'), () => revertRequest(f.log, 'req-form'));
    expect(result.entries.map((e) => e.details)).toEqual([
      { reverted: { requestId: 'req-form' }, performed: 'update' },
      { reverted: { requestId: 'req-form' }, performed: 'delete' },
    ]);
    expect(await f.Document.find(doc.id)).toBeUndefined();
    expect((await f.Document.find(doc.id, { withDeleted: true }))?.title).toBe('Document 1');
    expect(await f.Document.find(other.id)).toBeDefined();
  });

  it('a request whose write was a bulk archive is undone as one unit too', async () => {
    for (let i = 1; i <= 2; i++) await f.Document.create(newDocument(i, 7, { status: 'published' }));
    await archiveAll();
    const result = await revertRequest(f.log, 'req-archive');
    expect(result.entries).toMatchObject([
      { ref: { kind: 'bulk' }, action: 'reverted', details: { reverted: { requestId: 'req-archive' } } },
    ]);
    expect(await statuses()).toEqual(['published', 'published']);
  });

  it('any conflict refuses all: nothing is written', async () => {
    const [a, b] = await runInContext(as('req-form'), async () => [
      await f.Document.create(newDocument(1, 7)),
      await f.Document.create(newDocument(2, 7)),
    ]);
    await runInContext(as('req-two'), async () => {
      await f.Document.update(a!.id, { title: 'A2' });
      await f.Document.update(b!.id, { title: 'B2' });
    });
    await f.Document.update(a!.id, { title: 'A3' });
    await expect(revertRequest(f.log, 'req-two')).rejects.toBeInstanceOf(RevertConflictError);
    expect((await f.Document.find(b!.id))?.title).toBe('B2');
    await expect(revertRequest(f.log, 'req-none')).rejects.toBeInstanceOf(AuditEntryNotFoundError);
  });
});

describe('reads | activity and entry', () => {
  it('lists single and bulk entries newest first, filtered by actor, resource, action, request and time, with a total', async () => {
    for (let i = 1; i <= 3; i++)
      await runInContext(as(`req-${i}`, 'POST /documents'), () => f.Document.create(newDocument(i, 7, { status: 'published' })));
    await archiveAll();
    await f.Document.create(newDocument(9, 8)); // by system
    const all = await readActivity(f.database.db, trackedResources, {}, { perPage: 2 });
    expect(all.total).toBe(5);
    expect(all.events.map((e) => e.action)).toEqual(['created', 'updated']);
    expect(all.events[1]).toMatchObject({ ref: { kind: 'bulk' }, rows: 3, actor: { label: 'user:7' } });
    const page2 = await readActivity(f.database.db, trackedResources, {}, { page: 2, perPage: 2 });
    expect(page2.events.map((e) => e.requestId)).toEqual(['req-3', 'req-2']);
    expect((await readActivity(f.database.db, trackedResources, { actor: 'user:7', action: 'created' })).total).toBe(3);
    expect((await readActivity(f.database.db, trackedResources, { actor: 'system' })).total).toBe(1);
    expect((await readActivity(f.database.db, trackedResources, { resource: 'Document', requestId: 'req-2' })).total).toBe(1);
    expect((await readActivity(f.database.db, trackedResources, { from: new Date(Date.now() + 60_000) })).total).toBe(0);
    expect((await readActivity(f.database.db, trackedResources, { to: new Date(Date.now() + 60_000) })).total).toBe(5);
    const one = all.events[0]!;
    expect(await readEntry(f.database.db, one.ref, trackedResources)).toEqual(one);
    expect(await readEntry(f.database.db, { kind: 'bulk', id: '999' })).toBeUndefined();
  });

  it('leaves hidden columns out of a diff and shows redacted ones as [redacted]', async () => {
    await f.Document.create(newDocument(1, 7, { share_token: 'abc' }));
    await f.Account.create({ email: 'a@example.com', password: 'pw', notes: 'n' });
    const events = (await readActivity(f.database.db, [trackedResources.Document, f.Account.config])).events;
    const account = events.find((e) => e.resource === 'accounts')!;
    const doc = events.find((e) => e.resource === 'documents')!;
    expect(doc.diff.map((d) => d.field)).not.toContain('share_token');
    expect(account.diff.map((d) => d.field)).not.toContain('password');
    expect(account.diff.find((d) => d.field === 'notes')).toEqual({ field: 'notes', old: null, new: '[redacted]' });
    void sql;
  });
});
