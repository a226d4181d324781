/**
 * docs/spec.md 4.5 "Handler results", one test per row, over real HTTP.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  created,
  json,
  noContent,
  page,
  redirect,
  redirectExternal,
  redirectToRoute,
  respond,
  text,
} from '../../../runtime/results/result.js';
import type { RequestContext } from '../../../runtime/http/context.js';
import type { OutputPlan } from '../../../runtime/routing/route-table.js';
import { field, route } from './support/routes.js';
import { call, closeAll, startServer, type TestServer } from './support/server.js';

interface Row {
  id: number;
  title: string;
  secret: string;
  created_at: Date;
}
const row = (id: number): Row => ({ id, title: `Note ${id}`, secret: 'hidden', created_at: new Date(Date.UTC(2024, 4, 1, 12)) });
const noteOutput = (array: boolean): OutputPlan => ({
  resource: 'Note',
  array,
  serialize: (r: Row) => ({ id: r.id, title: r.title, created_at: r.created_at.toISOString() }),
});

const routes = [
  route({ name: 'items.show', path: '/items/{id}', fields: [field('id', 'integer', { path: 'id' })], output: noteOutput(false) }),
  route({ name: 'items.list', path: '/items', output: noteOutput(true) }),
  route({ name: 'items.create', method: 'POST', path: '/items', result: 'created', output: noteOutput(false) }),
  route({ name: 'accepted', method: 'POST', path: '/accepted', output: noteOutput(false) }),
  route({ name: 'nothing', method: 'DELETE', path: '/nothing', result: 'noContent' }),
  route({ name: 'undefined', method: 'DELETE', path: '/undefined', result: 'noContent' }),
  route({ name: 'to.url', path: '/to-url', result: 'redirect' }),
  route({ name: 'to.path', path: '/to-path', result: 'redirect' }),
  route({ name: 'to.unsafe', path: '/to-unsafe', fields: [field('to', 'string', { query: 'to' })], result: 'redirect' }),
  route({ name: 'to.external.bad', path: '/to-external-bad', result: 'redirect' }),
  route({ name: 'to.route', path: '/to-route', result: 'redirect' }),
  route({ name: 'to.unknown', path: '/to-unknown', result: 'redirect' }),
  route({ name: 'teapot', path: '/teapot', result: 'text' }),
  route({ name: 'csv', path: '/csv', result: 'custom' }),
  route({ name: 'greet', path: '/greet', result: 'page' }),
  route({ name: 'broken', path: '/broken', result: 'page' }),
  route({ name: 'urls', path: '/urls' }),
];

let server: TestServer;
let views: string;
beforeAll(async () => {
  views = await mkdtemp(join(tmpdir(), 'bindery-views-'));
  await mkdir(join(views, 'pages'));
  await writeFile(
    join(views, 'pages', 'greet.eta'),
    '<h1>Hello, <%= it.name %>!</h1><a href="<%= it.url("items.show", { id: 3 }) %>">3</a>',
  );
  await writeFile(join(views, 'pages', 'broken.eta'), '<p>PARTIAL OUTPUT</p><% throw new Error("the view failed") %>');
  server = await startServer({
    routes,
    viewsDir: views,
    handlers: {
      'items.show': (input: { id: number }) => row(input.id),
      'items.list': () => [row(1), row(2)],
      'items.create': () => created(row(9), { location: '/items/9' }),
      accepted: () => json(row(5), 202, { 'x-queue': 'low' }),
      nothing: () => noContent(),
      undefined: () => undefined,
      'to.url': () => redirectExternal('https://example.com/elsewhere?a=1'),
      'to.path': () => redirect('/notes/café?a=1'),
      'to.unsafe': (input: { to: string }) => redirect(input.to),
      'to.external.bad': () => redirectExternal('javascript:alert(1)'),
      'to.route': () => redirectToRoute('items.show', { id: 7, tab: 'a b' }),
      'to.unknown': () => redirectToRoute('items.shw', { id: 7 }),
      teapot: () => text("I'm a teapot", 418),
      csv: () => respond((reply) => reply.code(202).header('content-type', 'text/csv').send('a,b\n1,2\n')),
      greet: () => page('pages/greet', { name: '<World>' }),
      broken: () => page('pages/broken', {}),
      urls: (_input: unknown, ctx: RequestContext) => ({ show: ctx.url('items.show', { id: 'a/b' }), list: ctx.url('items.list') }),
    },
  });
});
afterAll(async () => {
  await closeAll();
  await rm(views, { recursive: true, force: true });
});

describe('Results | any value: 200 JSON through the output serializer', () => {
  it('serializes one row', async () => {
    const res = await call(`${server.url}/items/4`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.text).toBe('{"id":4,"title":"Note 4","created_at":"2024-05-01T12:00:00.000Z"}');
  });

  it('serializes a list item by item', async () => {
    const res = await call(`${server.url}/items`);
    expect(res.json()).toEqual([
      { id: 1, title: 'Note 1', created_at: '2024-05-01T12:00:00.000Z' },
      { id: 2, title: 'Note 2', created_at: '2024-05-01T12:00:00.000Z' },
    ]);
  });
});

describe('Results | created: 201 JSON with Location', () => {
  it('answers 201', async () => {
    const res = await call(`${server.url}/items`, { method: 'POST' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe('/items/9');
    expect(res.json()).toEqual({ id: 9, title: 'Note 9', created_at: '2024-05-01T12:00:00.000Z' });
  });
});

describe('Results | JSON with a status', () => {
  it('answers that status and headers', async () => {
    const res = await call(`${server.url}/accepted`, { method: 'POST' });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-queue')).toBe('low');
    expect(res.json()).toEqual({ id: 5, title: 'Note 5', created_at: '2024-05-01T12:00:00.000Z' });
  });
});

describe('Results | no content, or nothing: 204', () => {
  it.each(['/nothing', '/undefined'])('%s answers 204 without a body', async (path) => {
    const res = await call(`${server.url}${path}`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('content-type')).toBeNull();
  });
});

describe('Results | redirect: 303 to a path, a route name, or (redirectExternal) another site', () => {
  it('redirect(path): the path, non-ASCII characters percent-encoded', async () => {
    const res = await call(`${server.url}/to-path`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/notes/caf%C3%A9?a=1');
  });

  it('redirect(target) with a target off the site: 500 BINDERY_UNSAFE_REDIRECT, no Location', async () => {
    for (const to of [
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      'evil.example',
      '/ok\r\nSet-Cookie: x=1',
    ]) {
      const res = await call(`${server.url}/to-unsafe?to=${encodeURIComponent(to)}`, { headers: { accept: 'application/json' } });
      expect(res.status, to).toBe(500);
      expect(res.headers.get('location'), to).toBeNull();
    }
    const ok = await call(`${server.url}/to-unsafe?to=${encodeURIComponent('/notes?page=2')}`);
    expect(ok.headers.get('location')).toBe('/notes?page=2');
  });

  it('redirectExternal takes only an absolute http(s) URL', async () => {
    const res = await call(`${server.url}/to-external-bad`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('location')).toBeNull();
  });

  it('redirectExternal(url): to another site', async () => {
    const res = await call(`${server.url}/to-url`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://example.com/elsewhere?a=1');
  });

  it('to a route name, parameters filled, the rest in the query', async () => {
    const res = await call(`${server.url}/to-route`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/items/7?tab=a+b');
  });

  it('to an unknown route name: 500', async () => {
    const res = await call(`${server.url}/to-unknown`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('location')).toBeNull();
    const log = server.logs.find((l) => l.code === 'BINDERY_UNKNOWN_ROUTE');
    expect((log?.err as { message: string }).message).toBe(
      'No route is named "items.shw" (did you mean "items.show"?); use a route name from schema/*.yaml.',
    );
  });
});

describe('Results | text with a status', () => {
  it('answers plain text', async () => {
    const res = await call(`${server.url}/teapot`);
    expect(res.status).toBe(418);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.text).toBe("I'm a teapot");
  });
});

describe('Results | custom responder: whatever it writes', () => {
  it('writes its own status, type and body; the standard headers are still there', async () => {
    const res = await call(`${server.url}/csv`);
    expect(res.status).toBe(202);
    expect(res.headers.get('content-type')).toBe('text/csv');
    expect(res.text).toBe('a,b\n1,2\n');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('Results | pages: rendered into a buffer, written only when rendering succeeded', () => {
  it('renders the view with escaped data and the url helper', async () => {
    const res = await call(`${server.url}/greet`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toBe('<h1>Hello, &lt;World&gt;!</h1><a href="/items/3">3</a>');
  });

  it('a render error gives an error page, never half a page', async () => {
    const res = await call(`${server.url}/broken`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).not.toContain('PARTIAL OUTPUT');
    expect(res.text).toContain('<h1>Internal Server Error</h1>');
    expect(res.text).toContain('An internal error occurred.');
    const log = server.logs.find((l) => l.code === 'BINDERY_VIEW_FAILED');
    expect(log?.reqId).toBe(res.headers.get('x-request-id'));
  });
});

describe('Results | ctx.url', () => {
  it('fills and encodes parameters', async () => {
    const res = await call(`${server.url}/urls`);
    expect(res.json()).toEqual({ show: '/items/a%2Fb', list: '/items' });
  });
});
