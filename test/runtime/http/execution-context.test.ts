import { afterAll, describe, expect, it } from 'vitest';
import { currentContext, resolveActor } from '../../../runtime/context/execution-context.js';
import type { RequestContext } from '../../../runtime/http/context.js';
import { call, closeAll, startServer } from './support/server.js';
import { field, route } from './support/routes.js';

afterAll(closeAll);

const routes = [
  route({ name: 'docs.patch', method: 'PATCH', path: '/api/documents/{id}', fields: [field('id', 'integer', { path: 'id' })] }),
];

async function describeContext() {
  await new Promise((r) => setTimeout(r, 1));
  const ctx = currentContext();
  return ctx === undefined ? { none: true } : { via: ctx.via, requestId: ctx.requestId, ip: ctx.ip, actor: await resolveActor() };
}

describe('Pipeline | execution context of a request (docs/spec.md 5.8)', () => {
  it('runs the handler inside the request context when asked: via is method and path without the query', async () => {
    const server = await startServer({ routes, handlers: { 'docs.patch': () => describeContext() }, executionContext: true });
    const res = await call(`${server.url}/api/documents/42?x=1`, { method: 'PATCH', headers: { 'x-request-id': 'req-7' } });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      via: { kind: 'request', name: 'PATCH /api/documents/42' },
      requestId: 'req-7',
      ip: '127.0.0.1',
      actor: { type: 'system', id: '' },
    });
  });

  it('attributes to the signed-in user set by middleware', async () => {
    const server = await startServer({
      routes: [
        route({
          name: 'docs.patch',
          method: 'PATCH',
          path: '/api/documents/{id}',
          fields: [field('id', 'integer', { path: 'id' })],
          middleware: ['auth'],
        }),
      ],
      handlers: { 'docs.patch': () => describeContext() },
      middleware: {
        auth: async (ctx: RequestContext & { resolveUser?: () => Promise<{ type: string; id: string }> }, next) => {
          ctx.resolveUser = async () => ({ type: 'user', id: '5' });
          return next();
        },
      },
      executionContext: true,
    });
    const res = await call(`${server.url}/api/documents/1`, { method: 'PATCH' });
    expect(res.json().actor).toEqual({ type: 'user', id: '5' });
  });

  it('does not enter any context when no setup step asked for it', async () => {
    const server = await startServer({ routes, handlers: { 'docs.patch': () => describeContext() } });
    const res = await call(`${server.url}/api/documents/42`, { method: 'PATCH' });
    expect(res.json()).toEqual({ none: true });
  });
});
