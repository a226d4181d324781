/**
 * The MCP endpoint is stateless (docs/mcp.md "Several instances"): two
 * instances of the reference app on one database behind one URL (a
 * round-robin proxy), one client session whose requests alternate between
 * them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app from '../../app/main.js';
import type { Database } from '../../generated/types.js';
import { createTestApp, type TestApp } from '../../runtime/app/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';
import type { AuditTables } from '../runtime/audit/support.js';
import { bearerFor } from './tokens-support.js';
import { CLIENT_INFO, mcpClient } from './mcp-support.js';

type DB = Database & AuditTables;
let database: TestDatabase;
let a: TestApp<DB>;
let b: TestApp<DB>;
let proxy: Server;
let proxyUrl: string;
const served: string[] = [];

/** Forward each request to the next instance in turn, buffering the body both ways. */
function roundRobin(targets: readonly string[]): Server {
  let next = 0;
  return createServer((req, res) => {
    const target = targets[next++ % targets.length]!;
    served.push(target);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers.set(k, v);
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const upstream = await fetch(`${target}${req.url}`, { method: req.method!, headers, ...(body !== undefined ? { body } : {}) });
      const out: Record<string, string> = {};
      upstream.headers.forEach((v, k) => {
        if (k !== 'content-length' && k !== 'content-encoding' && k !== 'transfer-encoding') out[k] = v;
      });
      res.writeHead(upstream.status, out);
      res.end(Buffer.from(await upstream.arrayBuffer()));
    });
  });
}

beforeAll(async () => {
  database = await createTestDatabase('mcp_two');
  a = await createTestApp<DB>(app, { databaseUrl: database.url, env: { ...referenceAppEnv } });
  b = await createTestApp<DB>(app, { databaseUrl: database.url, env: { ...referenceAppEnv }, migrate: false });
  proxy = roundRobin([a.url, b.url]);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await b?.close();
  await a?.close();
  await database?.drop();
});

describe('MCP | two instances behind one URL', () => {
  for (const era of ['modern', 'legacy'] as const) {
    it(`serves one ${era} client session whose requests alternate between the instances`, async () => {
      served.length = 0;
      const client: Client = await mcpClient(proxyUrl, await bearerFor(a, 1), era);
      try {
        expect((await client.listTools()).tools.map((x) => x.name)).toContain('documents.update');
        const doc = (await client.callTool({ name: 'documents.create', arguments: { slug: `two-${era}`, title: 'One' } }))
          .structuredContent as {
          id: number;
        };
        for (const title of ['Two', 'Three', 'Four']) {
          const res = await client.callTool({ name: 'documents.update', arguments: { id: doc.id, title } });
          expect(res.structuredContent).toMatchObject({ id: doc.id, title });
        }
        const row = await a.db.selectFrom('documents').select('title').where('id', '=', doc.id).executeTakeFirstOrThrow();
        expect(row.title).toBe('Four');
        // Both instances answered requests of the one session.
        expect(new Set(served)).toEqual(new Set([a.url, b.url]));
        const entries = await a.db
          .selectFrom('audit_log')
          .select(['action', 'via_kind', 'properties'])
          .where('subject_id', '=', String(doc.id))
          .execute();
        expect(entries.map((e) => [e.action, e.via_kind])).toEqual([
          ['created', 'mcp'],
          ['updated', 'mcp'],
          ['updated', 'mcp'],
          ['updated', 'mcp'],
        ]);
        // Whichever instance wrote it, each entry names the client of the session.
        for (const e of entries) expect(e.properties).toEqual({ client: CLIENT_INFO });
      } finally {
        await client.close();
      }
    });
  }
});
