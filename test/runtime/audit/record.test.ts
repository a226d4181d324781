/**
 * Application events and the client IP (docs/spec.md 6.1 "record by the
 * application", rule 10).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../runtime/audit/index.js';
import type { AuditIpMode } from '../../../runtime/audit/settings.js';
import { runInContext } from '../../../runtime/context/execution-context.js';
import { auditFixture, type AuditFixture } from './support.js';

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

const lastEntry = () => f.database.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();

describe('AuditLog.record | application events', () => {
  it('records an application-chosen action, a subject and JSON details, attributed like writes', async () => {
    const context = {
      via: { kind: 'request', name: 'GET /api/documents/export' },
      requestId: 'req-5',
      resolveUser: async () => ({ type: 'user', id: '7' }),
    };
    await runInContext(context, () =>
      f.log.record({
        action: 'documents.exported',
        subject: { type: 'users', id: 7 },
        details: { documents: 3, at: new Date('2030-01-02T03:04:05Z') },
      }),
    );
    expect(await lastEntry()).toMatchObject({
      action: 'documents.exported',
      subject_type: 'users',
      subject_id: '7',
      properties: { documents: 3, at: '2030-01-02T03:04:05.000Z' },
      changes: null,
      actor_type: 'user',
      actor_id: '7',
      via_kind: 'request',
      via_name: 'GET /api/documents/export',
      request_id: 'req-5',
    });
  });

  it("records inside the caller's transaction, and not when it rolls back", async () => {
    await expect(
      f.database.db.transaction().execute(async (trx) => {
        await f.log.record({ action: 'app.tried' }, { db: trx });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await f.database.db.selectFrom('audit_log').selectAll().execute()).toEqual([]);
  });

  it('refuses a subject key over 255 bytes', async () => {
    await expect(f.log.record({ action: 'x', subject: { type: 'things', id: 'k'.repeat(256) } })).rejects.toMatchObject({
      code: 'BINDERY_AUDIT_KEY_TOO_LONG',
    });
  });
});

describe('AuditLog | AUDIT_IP (docs/spec.md 6.1 rule 10)', () => {
  const cases: [AuditIpMode, string, string | null][] = [
    ['off', '203.0.113.77', null],
    ['masked', '203.0.113.77', '203.0.113.0'],
    ['masked', '::ffff:203.0.113.77', '203.0.113.0'],
    ['masked', '2001:db8:85a3:8d3:1319:8a2e:370:7348', '2001:db8:85a3::'],
    ['full', '203.0.113.77', '203.0.113.77'],
    ['full', '2001:db8:85a3:8d3:1319:8a2e:370:7348', '2001:db8:85a3:8d3:1319:8a2e:370:7348'],
  ];
  it.each(cases)('AUDIT_IP=%s stores %s as %s', async (mode, ip, stored) => {
    const log = new AuditLog({ database: f.database, settings: { AUDIT_IP: mode } });
    await runInContext({ via: { kind: 'request', name: 'POST /x' }, ip }, () => log.record({ action: 'ip.seen' }));
    expect((await lastEntry()).ip).toBe(stored);
  });
});
