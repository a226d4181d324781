/**
 * Dry runs of MCP tool calls (docs/mcp.md "Dry run") on the engine of the
 * run (PostgreSQL, MariaDB in the mariadb project): the answer the call
 * would have had and the audit entries it would have written, and nothing
 * left behind — no row, no entry.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import app from '../../app/main.js';
import type { Database } from '../../generated/types.js';
import { createTestApp, type TestApp } from '../../runtime/app/index.js';
import { DRY_RUN_META } from '../../runtime/mcp/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';
import type { AuditTables } from '../runtime/audit/support.js';
import { bearerFor } from './tokens-support.js';
import { CLIENT_INFO, mcpClient, textOf } from './mcp-support.js';

type DB = Database & AuditTables;
let database: TestDatabase;
let t: TestApp<DB>;
let client: Client;

beforeAll(async () => {
  database = await createTestDatabase('mcp_dry');
  t = await createTestApp<DB>(app, { databaseUrl: database.url, env: { ...referenceAppEnv } });
  client = await mcpClient(t.url, await bearerFor(t, 3));
});
afterAll(async () => {
  await client?.close();
  await t?.close();
  await database?.drop();
});
beforeEach(async () => {
  await t.db.deleteFrom('documents').execute();
  await t.db.deleteFrom('audit_log').execute();
});

const counts = async () => ({
  documents: (await t.db.selectFrom('documents').select('id').execute()).length,
  entries: (await t.db.selectFrom('audit_log').select('id').execute()).length,
  bulk: (await t.db.selectFrom('audit_bulk').select('id').execute()).length,
});
const dryAudit = (result: { _meta?: Record<string, unknown> }) => (result._meta?.[DRY_RUN_META] as { audit: any[] }).audit;

describe('MCP dry run | answers what the call would do, leaves nothing', () => {
  it('a create: the document it would make and its entry, but no row and no entry', async () => {
    const res = await client.callTool({ name: 'documents.create', arguments: { slug: 'dry', title: 'Dry', dryRun: true } });
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent).toMatchObject({ owner_id: 3, slug: 'dry', title: 'Dry', status: 'draft' });
    const audit = dryAudit(res);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'created',
      subject: { type: 'documents' },
      actor: 'user:3',
      via: { kind: 'mcp', name: 'documents.create' },
      details: { client: CLIENT_INFO },
    });
    expect(audit[0].changes.new).toMatchObject({ slug: 'dry', title: 'Dry' });
    expect(textOf(res)).toMatchObject({ dryRun: true, result: { slug: 'dry' }, audit: [{ action: 'created' }] });
    expect(await counts()).toEqual({ documents: 0, entries: 0, bulk: 0 });
  });

  it('an update and a delete of a real document: the diff, and the row as it was', async () => {
    const doc = (await client.callTool({ name: 'documents.create', arguments: { slug: 'real', title: 'Before', status: 'published' } }))
      .structuredContent as {
      id: number;
    };
    const before = await counts();
    const updated = await client.callTool({ name: 'documents.update', arguments: { id: doc.id, title: 'After', dryRun: true } });
    expect(updated.structuredContent).toMatchObject({ id: doc.id, title: 'After' });
    expect(dryAudit(updated)).toEqual([
      expect.objectContaining({
        action: 'updated',
        subject: { type: 'documents', id: String(doc.id) },
        changes: { old: { title: 'Before' }, new: { title: 'After' } },
      }),
    ]);
    const deleted = await client.callTool({ name: 'documents.delete', arguments: { id: doc.id, dryRun: true } });
    expect(deleted.isError).toBeFalsy();
    expect(dryAudit(deleted).map((e) => e.action)).toEqual(['deleted']);
    const archived = await client.callTool({ name: 'documents.archive', arguments: { dryRun: true } });
    expect(archived.structuredContent).toEqual({ archived: 1 });
    expect(dryAudit(archived)).toEqual([expect.objectContaining({ action: 'updated', subject: { type: 'documents', id: null }, rows: 1 })]);
    const row = await t.db.selectFrom('documents').selectAll().where('id', '=', doc.id).executeTakeFirstOrThrow();
    expect(row.title).toBe('Before');
    expect(row.deleted_at).toBeNull();
    expect(row.status).toBe('published');
    expect(await counts()).toEqual(before);
  });

  it('a refused dry run is the same tool error as the real call (422 with field errors), and leaves nothing', async () => {
    const res = await client.callTool({ name: 'documents.create', arguments: { slug: 'bad slug!', dryRun: true } });
    expect(res.isError).toBe(true);
    expect(textOf(res).status).toBe(422);
    expect(await counts()).toEqual({ documents: 0, entries: 0, bulk: 0 });
  });
});
