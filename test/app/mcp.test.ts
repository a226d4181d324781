/**
 * The MCP endpoint of the reference app end to end (docs/mcp.md): the
 * SDK's own client over real HTTP, tokens of different abilities, the rows
 * and audit entries the calls leave.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import app from '../../app/main.js';
import type { Database } from '../../generated/types.js';
import { createTestApp, type TestApp } from '../../runtime/app/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';
import type { AuditTables } from '../runtime/audit/support.js';
import { bearerFor } from './tokens-support.js';
import { CLIENT_INFO, mcpClient, rawMcp, textOf } from './mcp-support.js';

type DB = Database & AuditTables;
let database: TestDatabase;
let t: TestApp<DB>;
const open: Client[] = [];

const ALL = ['documents:read', 'documents:write', 'profile:read'];
const connect = async (abilities: readonly string[], user = 1, era: 'modern' | 'legacy' = 'modern') => {
  const client = await mcpClient(t.url, await bearerFor(t, user, abilities), era);
  open.push(client);
  return client;
};

beforeAll(async () => {
  database = await createTestDatabase('mcp');
  t = await createTestApp<DB>(app, { databaseUrl: database.url, env: { ...referenceAppEnv } });
});
afterAll(async () => {
  for (const c of open) await c.close();
  await t?.close();
  await database?.drop();
});
beforeEach(async () => {
  await t.db.deleteFrom('documents').execute();
  await t.db.deleteFrom('audit_log').execute();
});

describe('MCP | authentication', () => {
  it('answers 401 without a token, naming the protected-resource metadata, which lists the abilities', async () => {
    const res = await rawMcp(t.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer resource_metadata="http:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/mcp"$/);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1]!;
    for (const url of [metadataUrl, `${t.url}/.well-known/oauth-protected-resource`]) {
      const metadata = await fetch(url);
      expect(metadata.status).toBe(200);
      const body = (await metadata.json()) as Record<string, unknown>;
      expect(body['resource']).toMatch(/\/mcp$/);
      expect(body['bearer_methods_supported']).toEqual(['header']);
      expect(body['scopes_supported']).toEqual(['documents:read', 'documents:write', 'profile:read']);
    }
  });

  it('keeps no sessions: GET and DELETE of the endpoint are 405', async () => {
    const token = await bearerFor(t, 1, ALL);
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${t.url}/mcp`, { method, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
    }
  });

  it('answers 401 invalid_token for a token that does not check out', async () => {
    const res = await rawMcp(t.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: 'Bearer 999|nope' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", resource_metadata="/);
  });
});

describe('MCP | tools from the routes', () => {
  it('lists only the tools the token may call, with schemas, descriptions and annotations from the routes', async () => {
    const full = (await (await connect(ALL)).listTools()).tools;
    const names = full.map((x) => x.name);
    expect(names).toEqual(
      expect.arrayContaining(['api.me', 'documents.create', 'documents.update', 'documents.delete', 'notes.create', 'notes.list']),
    );
    // Pages, uploads and routes without mcp: true are no tools.
    expect(names).not.toContain('notes.new');
    expect(names).not.toContain('attachments.create');
    expect(names).not.toContain('tokens.create');
    const create = full.find((x) => x.name === 'documents.create')!;
    expect(create.description).toBe('Create a document owned by the caller.');
    expect(create.inputSchema.required).toEqual(['slug', 'title']);
    expect(Object.keys(create.inputSchema.properties!)).toEqual(['slug', 'title', 'body', 'status', 'dryRun']);
    expect(create.outputSchema?.type).toBe('object');
    expect(create.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(full.find((x) => x.name === 'documents.delete')!.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
    const show = full.find((x) => x.name === 'documents.show')!;
    expect(show.annotations).toMatchObject({ readOnlyHint: true });
    expect(show.inputSchema.properties).not.toHaveProperty('dryRun');

    const readOnly = (await (await connect(['documents:read'])).listTools()).tools.map((x) => x.name);
    expect(readOnly).toContain('documents.show');
    expect(readOnly).toContain('notes.create'); // the notes routes ask for no ability
    expect(readOnly).not.toContain('documents.create');
    expect(readOnly).not.toContain('documents.update');
    expect(readOnly).not.toContain('api.me');
  });

  it('creates, updates and deletes through the routes, leaving the rows and the audit entries an HTTP client would', async () => {
    const client = await connect(ALL, 4);
    const created = await client.callTool({ name: 'documents.create', arguments: { slug: 'agent-doc', title: 'Draft' } });
    expect(created.isError).toBeFalsy();
    const doc = created.structuredContent as { id: number; owner_id: number; title: string };
    expect(doc).toMatchObject({ owner_id: 4, title: 'Draft' });

    const updated = await client.callTool({ name: 'documents.update', arguments: { id: doc.id, title: 'Final' } });
    expect(updated.structuredContent).toMatchObject({ id: doc.id, title: 'Final' });
    const row = await t.db.selectFrom('documents').selectAll().where('id', '=', doc.id).executeTakeFirstOrThrow();
    expect(row.title).toBe('Final');

    const history = await client.callTool({ name: 'documents.history', arguments: { id: doc.id } });
    const events = (history.structuredContent as { events: { actor: string; action: string; via: string; details?: unknown }[] }).events;
    expect(events[0]).toMatchObject({ actor: 'user:4', action: 'updated', via: 'documents.update', details: { client: CLIENT_INFO } });

    const deleted = await client.callTool({ name: 'documents.delete', arguments: { id: doc.id } });
    expect(deleted.isError).toBeFalsy();
    const gone = await t.db.selectFrom('documents').select('deleted_at').where('id', '=', doc.id).executeTakeFirstOrThrow();
    expect(gone.deleted_at).not.toBeNull();

    const entries = await t.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
    expect(entries.map((e) => [e.action, e.actor_type, e.actor_id, e.via_kind, e.via_name])).toEqual([
      ['created', 'user', '4', 'mcp', 'documents.create'],
      ['updated', 'user', '4', 'mcp', 'documents.update'],
      ['deleted', 'user', '4', 'mcp', 'documents.delete'],
    ]);
    for (const e of entries) expect(e.properties).toEqual({ client: CLIENT_INFO });
  });

  it('answers a 422 as a tool error with the field errors, and arguments of the wrong type too, never a 500', async () => {
    const client = await connect(ALL);
    const missing = await client.callTool({ name: 'documents.create', arguments: { slug: 'no title' } });
    expect(missing.isError).toBe(true);
    const problem = textOf(missing);
    expect(problem.status).toBe(422);
    expect(Object.keys(problem.errors)).toEqual(expect.arrayContaining(['slug', 'title']));
    const wrongType = await client.callTool({ name: 'documents.create', arguments: { slug: 'x', title: { nested: true } } });
    expect(wrongType.isError).toBe(true);
    expect([400, 422]).toContain(textOf(wrongType).status);
    const noId = await client.callTool({ name: 'documents.show', arguments: {} });
    expect(noId.isError).toBe(true);
    expect(textOf(noId).errors).toHaveProperty('id');
    expect(await t.db.selectFrom('documents').select('id').execute()).toEqual([]);
  });

  it("refuses a body over the route's body limit before it is parsed (413), as a tool error", async () => {
    const client = await connect(ALL);
    // documents.restore takes only its path's id: its body limit is the implied 64 KiB.
    const res = await client.callTool({ name: 'documents.restore', arguments: { id: 1, padding: 'x'.repeat(100_000) } });
    expect(res.isError).toBe(true);
    expect(textOf(res).status).toBe(413);
  });

  it('answers 403 insufficient_scope for a tool the token lacks the ability of, and the protocol error for an unknown tool', async () => {
    const token = await bearerFor(t, 1, ['documents:read']);
    const res = await rawMcp(
      t.url,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'documents.create', arguments: { slug: 's', title: 'T' } } },
      { authorization: `Bearer ${token}` },
    );
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", scope="documents:write", resource_metadata="/);
    const client = await connect(['documents:read']);
    await expect(client.callTool({ name: 'documents.create', arguments: { slug: 's', title: 'T' } })).rejects.toThrow();
    await expect(client.callTool({ name: 'documents.nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    expect(await t.db.selectFrom('documents').select('id').execute()).toEqual([]);
  });

  it("keeps another user's document out of reach, by the route's policy (404)", async () => {
    const mine = (await (await connect(ALL, 1)).callTool({ name: 'documents.create', arguments: { slug: 'mine', title: 'Mine' } }))
      .structuredContent as { id: number };
    const other = await connect(ALL, 2);
    const res = await other.callTool({ name: 'documents.update', arguments: { id: mine.id, title: 'Stolen' } });
    expect(res.isError).toBe(true);
    expect(textOf(res).status).toBe(404);
  });
});

describe('MCP | lists and the notes routes', () => {
  it("pages a list with the route's query parameters, and writes a note through its session group's route", async () => {
    const client = await connect(ALL, 7);
    for (const slug of ['list-a', 'list-b', 'other']) await client.callTool({ name: 'documents.create', arguments: { slug, title: slug } });
    const page = await client.callTool({ name: 'documents.list', arguments: { 'filter[slug]': 'list-', sort: 'id' } });
    expect((page.structuredContent as { data: { slug: string }[] }).data.map((d) => d.slug)).toEqual(['list-a', 'list-b']);

    const note = await client.callTool({ name: 'notes.create', arguments: { title: 'From an agent', tags: ['mcp'] } });
    expect(note.structuredContent).toMatchObject({ title: 'From an agent', tags: ['mcp'] });
    const shown = await client.callTool({ name: 'notes.show', arguments: { id: (note.structuredContent as { id: number }).id } });
    expect(shown.structuredContent).toMatchObject({ title: 'From an agent' });
  });
});

describe('MCP | 2025-era clients and tokens for agents', () => {
  it('serves a client of the 2025 protocol, whose session ID carries its name to the entries', async () => {
    const client = await connect(ALL, 5, 'legacy');
    expect((await client.listTools()).tools.map((x) => x.name)).toContain('documents.create');
    const res = await client.callTool({ name: 'documents.create', arguments: { slug: 'legacy', title: 'Legacy' } });
    expect(res.structuredContent).toMatchObject({ owner_id: 5 });
    const entry = await t.db.selectFrom('audit_log').selectAll().executeTakeFirstOrThrow();
    expect([entry.via_kind, entry.via_name]).toEqual(['mcp', 'documents.create']);
    expect(entry.properties).toEqual({ client: CLIENT_INFO });
  });

  it('limits a token with mcp:only to MCP: its direct HTTP requests are 403', async () => {
    const token = await bearerFor(t, 6, ['documents:read', 'documents:write', 'mcp:only']);
    const direct = await fetch(`${t.url}/api/documents`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    expect(direct.status).toBe(403);
    const client = await mcpClient(t.url, token);
    open.push(client);
    const res = await client.callTool({ name: 'documents.list', arguments: {} });
    expect(res.isError).toBeFalsy();
  });
});

describe('MCP | resources', () => {
  it('reads the OpenAPI document and a row the show route may show, by the same policy', async () => {
    const client = await connect(ALL, 1);
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((r) => r.uriTemplate);
    expect(templates).toEqual(expect.arrayContaining(['bindery://documents/{id}', 'bindery://notes/{id}']));
    const openapi = await client.readResource({ uri: 'bindery://openapi' });
    expect(JSON.parse((openapi.contents[0] as { text: string }).text).openapi).toMatch(/^3\.1/);
    const doc = (await client.callTool({ name: 'documents.create', arguments: { slug: 'res', title: 'Res' } })).structuredContent as {
      id: number;
    };
    const read = await client.readResource({ uri: `bindery://documents/${doc.id}` });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ id: doc.id, title: 'Res' });
    const other = await connect(ALL, 2);
    await expect(other.readResource({ uri: `bindery://documents/${doc.id}` })).rejects.toThrow();
  });
});
