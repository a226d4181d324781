/**
 * Reverts of single-row entries (docs/audit.md "Revert"): a change, a
 * conflict and its confirmation, deletes, restores, a re-insert and its
 * refusals, a revert of a revert, two reverts racing, an unknown entry —
 * on the project's engine (PostgreSQL, or MariaDB in the `mariadb` project).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AuditEntryNotFoundError,
  readTimeline,
  revertEntry,
  RevertConflictError,
  RevertForbiddenError,
  RevertRefusedError,
} from '../../../runtime/audit/index.js';
import { runInContext } from '../../../runtime/context/execution-context.js';
import { auditFixture, newDocument, type AuditFixture } from './support.js';
import { trackedResources } from '../../../generated/audit.js';

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

const via = (name: string, requestId = 'req-1') => ({ via: { kind: 'request', name }, requestId, actor: { type: 'user', id: '1' } });

/** The newest entry of a document (its reference). */
async function newest(id: number): Promise<{ kind: 'entry' | 'bulk'; id: string; action: string }> {
  const page = await readTimeline(f.database.db, trackedResources, 'Document', id, { limit: 1 });
  const event = page.events[0]!;
  return { ...event.ref, action: event.action };
}

async function reverting<T>(fn: () => Promise<T>): Promise<T> {
  return runInContext(via('POST /admin/audit/x/revert', 'req-revert'), fn);
}

describe('revert | a change', () => {
  it('writes the old values back and records its own entry "reverted", which the timeline shows with its diff', async () => {
    const doc = await f.Document.create(newDocument(1));
    await runInContext(via('PATCH /api/documents/1'), () => f.Document.update(doc.id, { title: 'Changed', status: 'published' }));
    const ref = await newest(doc.id);
    expect(ref.action).toBe('updated');

    const result = await reverting(() => revertEntry(f.log, ref));
    const row = await f.Document.find(doc.id);
    expect(row).toMatchObject({ title: 'Document 1', status: 'draft' });
    expect(result.entries).toHaveLength(1);
    const entry = result.entries[0]!;
    expect(entry).toMatchObject({
      action: 'reverted',
      resource: 'documents',
      subjectId: String(doc.id),
      actor: { label: 'user:1', type: 'user', id: '1' },
      requestId: 'req-revert',
      details: { reverted: { kind: 'entry', id: ref.id }, performed: 'update' },
    });
    expect(entry.diff).toEqual([
      { field: 'title', old: 'Changed', new: 'Document 1' },
      { field: 'status', old: 'published', new: 'draft' },
    ]);
    const timeline = await readTimeline(f.database.db, trackedResources, 'documents', doc.id);
    expect(timeline.events.map((e) => e.action)).toEqual(['reverted', 'updated', 'created']);
    expect(timeline.events[0]!.ref).toEqual(entry.ref);
  });

  it('refuses with the three-way difference when the row changed since, and writes over it when the fields are confirmed', async () => {
    const doc = await f.Document.create(newDocument(1));
    await f.Document.update(doc.id, { title: 'Second' });
    const ref = await newest(doc.id);
    await f.Document.update(doc.id, { title: 'Third' });

    const error = await revertEntry(f.log, ref).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RevertConflictError);
    const conflict = error as RevertConflictError;
    expect(conflict.status).toBe(409);
    expect(conflict.code).toBe('BINDERY_AUDIT_REVERT_CONFLICT');
    expect(conflict.conflicts).toEqual([
      { resource: 'documents', id: String(doc.id), fields: [{ field: 'title', old: 'Document 1', new: 'Second', current: 'Third' }] },
    ]);
    expect(conflict.fieldErrors).toHaveProperty(`documents/${doc.id}.title`);
    expect((await f.Document.find(doc.id))?.title).toBe('Third');

    await revertEntry(f.log, ref, { confirm: ['title'] });
    expect((await f.Document.find(doc.id))?.title).toBe('Document 1');
  });

  it('a revert of a revert writes the reverted values again', async () => {
    const doc = await f.Document.create(newDocument(1));
    await f.Document.update(doc.id, { title: 'Second' });
    const first = await revertEntry(f.log, await newest(doc.id));
    expect((await f.Document.find(doc.id))?.title).toBe('Document 1');
    const second = await revertEntry(f.log, first.entries[0]!.ref);
    expect((await f.Document.find(doc.id))?.title).toBe('Second');
    expect(second.entries[0]).toMatchObject({ action: 'reverted', details: { reverted: first.entries[0]!.ref, performed: 'update' } });
  });

  it('two reverts of one entry at once: one writes, the other is refused with 409, nothing half-done', async () => {
    const doc = await f.Document.create(newDocument(1));
    await f.Document.update(doc.id, { title: 'Second' });
    const ref = await newest(doc.id);
    const results = await Promise.allSettled([revertEntry(f.log, ref), revertEntry(f.log, ref)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(RevertConflictError);
    const timeline = await readTimeline(f.database.db, trackedResources, 'Document', doc.id);
    expect(timeline.events.map((e) => e.action)).toEqual(['reverted', 'updated', 'created']);
    expect((await f.Document.find(doc.id))?.title).toBe('Document 1');
  });
});

describe('revert | deletes and creates', () => {
  it('restores a soft-deleted row, and reverting the restore deletes it again', async () => {
    const doc = await f.Document.create(newDocument(1));
    await f.Document.delete(doc.id);
    const restored = await revertEntry(f.log, await newest(doc.id));
    expect(await f.Document.find(doc.id)).toBeDefined();
    expect(restored.entries[0]).toMatchObject({ action: 'reverted', details: { performed: 'restore' } });
    await revertEntry(f.log, restored.entries[0]!.ref);
    expect(await f.Document.find(doc.id)).toBeUndefined();
    expect(await f.Document.find(doc.id, { withDeleted: true })).toBeDefined();
  });

  it('a created row is deleted (soft), and the revert is refused once it is deleted already', async () => {
    const doc = await f.Document.create(newDocument(1));
    const ref = await newest(doc.id);
    await revertEntry(f.log, ref);
    expect(await f.Document.find(doc.id)).toBeUndefined();
    await expect(revertEntry(f.log, ref)).rejects.toBeInstanceOf(RevertConflictError);
  });

  it('re-inserts a force-deleted row from its values; refuses when the entry did not keep a column unless it is confirmed', async () => {
    const doc = await f.Document.create(newDocument(1));
    await f.Document.forceDelete(doc.id);
    const ref = await newest(doc.id);
    const refused = (await revertEntry(f.log, ref).catch((e: unknown) => e)) as RevertRefusedError;
    expect(refused).toBeInstanceOf(RevertRefusedError);
    expect(refused.status).toBe(409);
    expect(Object.keys(refused.reasons)).toEqual(['view_count']);

    const result = await revertEntry(f.log, ref, { confirm: ['view_count'] });
    expect(await f.Document.find(doc.id)).toMatchObject({ id: doc.id, slug: 'doc-1', title: 'Document 1', body: 'Body 1' });
    expect(result.entries[0]).toMatchObject({ action: 'reverted', details: { performed: 'create' } });
  });

  it('refuses a re-insert whose slug a live row took since, explaining why', async () => {
    const doc = await f.Document.create(newDocument(1));
    await f.Document.forceDelete(doc.id);
    const ref = await newest(doc.id);
    const other = await f.Document.create(newDocument(1, 2));
    const refused = (await revertEntry(f.log, ref, { confirm: ['view_count'] }).catch((e: unknown) => e)) as RevertRefusedError;
    expect(refused).toBeInstanceOf(RevertRefusedError);
    expect(refused.reasons.slug).toContain(`live row ${other.id}`);
    expect(await f.Document.find(doc.id, { withDeleted: true })).toBeUndefined();
  });

  it('re-inserts a row of a table without soft delete (a UUID key)', async () => {
    const gadget = await f.Gadget.create({ name: 'lamp', price: 12 });
    await f.Gadget.forceDelete(gadget.id);
    const page = await readTimeline(f.database.db, [], 'gadgets', gadget.id);
    await revertEntry(f.log, page.events[0]!.ref);
    expect(await f.Gadget.find(gadget.id)).toMatchObject({ name: 'lamp', price: 12 });
  });
});

describe('revert | refusals', () => {
  it('an unknown entry is AuditEntryNotFoundError (404)', async () => {
    const error = (await revertEntry(f.log, { kind: 'entry', id: '999999' }).catch((e: unknown) => e)) as AuditEntryNotFoundError;
    expect(error).toBeInstanceOf(AuditEntryNotFoundError);
    expect(error.status).toBe(404);
    await expect(revertEntry(f.log, 'abc')).rejects.toBeInstanceOf(AuditEntryNotFoundError);
  });

  it('the authorize hook is asked for the write and for "revert"; a refusal is 403 and writes nothing', async () => {
    const doc = await f.Document.create(newDocument(1));
    await f.Document.update(doc.id, { title: 'Second' });
    const asked: string[] = [];
    const error = await revertEntry(f.log, await newest(doc.id), {
      authorize: (action, resource, row) => {
        asked.push(`${action} ${resource} ${String(row.id)}`);
        return action !== 'revert';
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RevertForbiddenError);
    expect((error as RevertForbiddenError).status).toBe(403);
    expect(asked).toEqual([`update documents ${doc.id}`, `revert documents ${doc.id}`]);
    expect((await f.Document.find(doc.id))?.title).toBe('Second');
  });

  it('an application event cannot be reverted', async () => {
    await runInContext(via('GET /x'), () => f.log.record({ action: 'documents.exported', subject: { type: 'documents', id: 1 } }));
    const page = await readTimeline(f.database.db, trackedResources, 'documents', 1);
    await expect(revertEntry(f.log, page.events[0]!.ref)).rejects.toBeInstanceOf(RevertRefusedError);
  });
});
