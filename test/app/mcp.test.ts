/**
 * The MCP endpoint of the reference app end to end (docs/mcp.md), with the
 * SDK's own client over real HTTP.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app from '../../app/main.js';
import type { Database } from '../../generated/types.js';
import { createTestApp, type TestApp } from '../../runtime/app/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';
import type { AuditTables } from '../runtime/audit/support.js';
import { bearerFor } from './tokens-support.js';

type DB = Database & AuditTables;
let database: TestDatabase;
let t: TestApp<DB>;

beforeAll(async () => {
  database = await createTestDatabase('mcp');
  t = await createTestApp<DB>(app, { databaseUrl: database.url, env: { ...referenceAppEnv } });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

async function connect(token: string, modern = true): Promise<Client> {
  const client = new Client({ name: 'claude-desktop', version: '1.2' }, modern ? { versionNegotiation: { mode: 'auto' } } : {});
  const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

describe('MCP | smoke', () => {
  it('lists and calls', async () => {
    const token = await bearerFor(t, 1, ['documents:read', 'documents:write', 'profile:read']);
    const client = await connect(token);
    const tools = await client.listTools();
    console.log(JSON.stringify(tools.tools.map((x) => x.name)));
    const created = await client.callTool({ name: 'documents.create', arguments: { slug: 'a', title: 'A' } });
    console.log(JSON.stringify(created));
    const rows = await t.db.selectFrom('audit_log').selectAll().execute();
    console.log(JSON.stringify(rows));
    await client.close();
  });
});
