/**
 * A dry run of a handler with effects outside its own writes (docs/mcp.md
 * "Dry run"): the job it queues is rolled back with the transaction, the
 * mail it sends directly is not sent, and the handler learns it is a dry
 * run (`ctx.dryRun`) to skip what only it can skip; the real call does it all.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../runtime/app/index.js';
import { type ApiTokens, tokens } from '../../../runtime/auth/tokens/index.js';
import type { RequestContext } from '../../../runtime/http/context.js';
import { defineJob, jobs, type Queue } from '../../../runtime/jobs/index.js';
import { mail, readOutbox, type AppMailer } from '../../../runtime/mail/index.js';
import { mcp } from '../../../runtime/mcp/index.js';
import type { RouteDefinition } from '../../../runtime/routing/route-table.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { fakeAuth, insertUser } from '../auth/tokens/fake-auth.js';
import { jobsNamed } from '../jobs/jobs-named.js';
import { mcpClient } from '../../app/mcp-support.js';

const noteJob = defineJob<{ marker: string }>({ name: 'test:note', handle() {} });
const outside: string[] = [];

const touch: RouteDefinition = {
  name: 'things.touch',
  method: 'POST',
  path: '/things',
  group: null,
  middleware: ['token', 'require'],
  mcp: true,
  result: 'ok',
  fields: [],
  validate: null,
  output: null,
  origin: 'test:things.touch',
};
const handler = async (_input: unknown, ctx: RequestContext) => {
  const services = ctx.services as unknown as { queue: Queue; mailer: AppMailer };
  await services.queue.add(noteJob, { marker: 'touched' });
  const sent = await services.mailer.send({ to: 'someone@example.test', subject: 'Touched', text: 'A thing was touched.' });
  if (!ctx.dryRun) outside.push('http call');
  return { delivered: sent.delivered.length, dryRun: ctx.dryRun };
};
const openapi = {
  openapi: '3.1.0',
  paths: {
    '/things': {
      post: {
        summary: 'Touch a thing: queue a job, send a mail, call out.',
        responses: { '200': { content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
  },
};

let database: TestDatabase;
let dir: string;
let t: TestApp;
let client: Client;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-effects-'));
  await writeFile(join(dir, 'openapi.json'), JSON.stringify(openapi));
  const app = defineApp({
    name: 'mcp_effects',
    root: process.cwd(),
    routes: [touch],
    handlers: { 'things.touch': handler },
    migrations: [],
    setup: [
      fakeAuth(),
      tokens(),
      jobs({ jobs: [noteJob] }),
      mail(),
      mcp({ document: join(dir, 'openapi.json'), allowedHosts: ['127.0.0.1', 'localhost'] }),
    ],
  });
  database = await createTestDatabase('mcp_effects');
  t = await createTestApp(app, { databaseUrl: database.url, env: { MAIL_DRIVER: 'outbox' } });
  const user = await insertUser(t.db as never);
  const { plain } = await (t.running.services.apiTokens as ApiTokens).create(String(user.id), { name: 'agent', abilities: [] });
  client = await mcpClient(t.url, plain);
});
afterAll(async () => {
  await client?.close();
  await t?.close();
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe("MCP dry run | effects outside the handler's writes", () => {
  it('queues no job, sends no mail and tells the handler; the real call does all three', async () => {
    const dry = await client.callTool({ name: 'things.touch', arguments: { dryRun: true } });
    expect(dry.structuredContent).toEqual({ delivered: 0, dryRun: true });
    expect(await jobsNamed(t.running.services, t.db, 'test:note')).toBe(0);
    expect(await readOutbox(t.db as never)).toEqual([]);
    expect(outside).toEqual([]);

    const real = await client.callTool({ name: 'things.touch', arguments: {} });
    expect(real.structuredContent).toEqual({ delivered: 1, dryRun: false });
    expect(await jobsNamed(t.running.services, t.db, 'test:note')).toBe(1);
    expect((await readOutbox(t.db as never)).map((m) => m.subject)).toEqual(['Touched']);
    expect(outside).toEqual(['http call']);
  });
});

describe('MCP | allowedHosts', () => {
  it('refuses a request whose Host is not listed (DNS rebinding), before any token is read', async () => {
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(`${t.url}/mcp`);
        const req = request(
          { host: url.hostname, port: url.port, path: '/mcp', method: 'POST', headers: { host, 'content-type': 'application/json' } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end('{}');
      });
    expect(await status('evil.example')).toBe(403);
    expect(await status(`127.0.0.1:${new URL(t.url).port}`)).toBe(401);
  });
});
