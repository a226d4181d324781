/**
 * The audit part of the development dashboard (docs/observability.md "The
 * development dashboard"): the entries of one request, row and bulk, as the
 * request page shows them; `null` for an app without the audit tables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_MIGRATIONS_DIR } from '../../../runtime/audit/audit-step.js';
import { connectDatabase, type Database } from '../../../runtime/db/index.js';
import { createMigrator } from '../../../runtime/db/migrator/migrator.js';
import { auditEntriesOf } from '../../../runtime/observability/dashboard/dashboard-audit.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

let testDb: TestDatabase;
let database: Database;

beforeAll(async () => {
  testDb = await createTestDatabase('dashboard_audit');
  database = await connectDatabase({ url: testDb.url });
});
afterAll(async () => {
  await database?.close();
  await testDb?.drop();
});

describe('Dashboard | audit entries of a request', () => {
  it('answers null while the app has no audit tables', async () => {
    expect(await auditEntriesOf(database, 'req-1')).toBeNull();
  });

  it("lists the request's row and bulk entries, oldest first, as text", async () => {
    await createMigrator(database, [{ source: 'audit', dir: AUDIT_MIGRATIONS_DIR }]).migrate();
    const at = (s: number) => new Date(Date.UTC(2026, 0, 2, 3, 4, s));
    await database.db
      .insertInto('audit_log')
      .values([
        {
          occurred_at: at(1),
          actor_type: 'user',
          actor_id: '41',
          action: 'created',
          subject_type: 'documents',
          subject_id: '7',
          changes: JSON.stringify({ title: [null, 'A title'] }),
          via_kind: 'route',
          via_name: 'documents.create',
          request_id: 'req-1',
        },
        { occurred_at: at(3), actor_type: 'system', action: 'exported', properties: JSON.stringify({ n: 1 }), request_id: 'req-1' },
        { occurred_at: at(2), actor_type: 'system', action: 'other request', request_id: 'req-2' },
      ])
      .execute();
    await database.db
      .insertInto('audit_bulk')
      .values({
        occurred_at: at(2),
        actor_type: 'job',
        actor_id: 'app:archive',
        action: 'updated',
        subject_type: 'notes',
        row_count: 3,
        values_complete: true,
        via_kind: 'job',
        via_name: 'app:archive',
        request_id: 'req-1',
      })
      .execute();

    const entries = await auditEntriesOf(database, 'req-1');
    expect(entries).toEqual([
      {
        kind: 'row',
        id: expect.stringMatching(/^\d+$/),
        occurredAt: at(1),
        action: 'created',
        subject: 'documents 7',
        actor: 'user:41',
        via: 'route documents.create',
        detail: '{"title": [null, "A title"]}',
      },
      {
        kind: 'bulk',
        id: expect.stringMatching(/^\d+$/),
        occurredAt: at(2),
        action: 'updated',
        subject: 'notes',
        actor: 'job:app:archive',
        via: 'job app:archive',
        detail: '3 rows',
      },
      {
        kind: 'row',
        id: expect.stringMatching(/^\d+$/),
        occurredAt: at(3),
        action: 'exported',
        subject: '',
        actor: 'system',
        via: '',
        detail: '{"n": 1}',
      },
    ]);
    expect(await auditEntriesOf(database, 'req-none')).toEqual([]);
  });
});
