/**
 * The articles routes as MCP tools (docs/mcp.md in bindery): the SDK's own
 * client with a user's token, a call through the route's pipeline (the
 * group's `Token` scheme, its error format), and a dry run that leaves nothing.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boot, call, register, type Kit } from './support.js';

let t: Kit;
let client: Client;

beforeAll(async () => {
  t = await boot();
  const token = await register(t, 'agent');
  client = new Client({ name: 'conduit-agent', version: '0.1' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

describe('RealWorld over MCP | the articles are tools', () => {
  it('lists the articles tools and writes an article through the route', async () => {
    const names = (await client.listTools()).tools.map((x) => x.name);
    expect(names).toEqual(
      expect.arrayContaining(['articles.create', 'articles.list', 'articles.show', 'articles.update', 'articles.delete']),
    );
    expect(names).not.toContain('users.login');

    const article = { title: 'Agents', description: 'About agents', body: 'They call tools.', tagList: ['mcp'] };
    const dry = await client.callTool({ name: 'articles.create', arguments: { article, dryRun: true } });
    expect(dry.isError).toBeFalsy();
    expect((await call(t, 'GET', '/articles')).body.articlesCount).toBe(0);

    const created = await client.callTool({ name: 'articles.create', arguments: { article } });
    expect(created.structuredContent).toMatchObject({ article: { title: 'Agents', author: { username: 'agent' } } });
    const listed = await call(t, 'GET', '/articles');
    expect(listed.body.articlesCount).toBe(1);

    const invalid = await client.callTool({ name: 'articles.create', arguments: { article: { title: '' } } });
    expect(invalid.isError).toBe(true);
    // The group's error format: { errors: { <field>: [messages] } }.
    expect(JSON.parse((invalid.content as { text: string }[])[0]!.text).errors).toBeDefined();
  });
});
