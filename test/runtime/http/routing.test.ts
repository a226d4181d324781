/**
 * Route selection: 404, 405 with Allow, HEAD, and method override (docs/spec.md 4,
 * top), over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestContext } from '../../../runtime/http/context.js';
import { field, route } from './support/routes.js';
import { call, closeAll, postForm, rawRequest, startServer, type TestServer } from './support/server.js';

const who = (input: Record<string, unknown>, ctx: RequestContext) => ({ route: ctx.route.name, method: ctx.request.method, ...input });

const routes = [
  route({ name: 'notes.list', path: '/notes' }),
  route({ name: 'notes.create', method: 'POST', path: '/notes', fields: [field('title', 'string', { json: 'title' })] }),
  route({ name: 'notes.new', path: '/notes/new' }),
  route({ name: 'notes.show', path: '/notes/{id}', fields: [field('id', 'integer', { path: 'id' })] }),
  route({
    name: 'notes.update',
    method: 'PUT',
    path: '/notes/{id}',
    fields: [field('id', 'integer', { path: 'id' }), field('title', 'string', { json: 'title' })],
  }),
  route({
    name: 'notes.patch',
    method: 'PATCH',
    path: '/notes/{id}',
    fields: [field('id', 'integer', { path: 'id' }), field('title', 'string', { json: 'title' })],
  }),
  route({ name: 'notes.delete', method: 'DELETE', path: '/notes/{id}', fields: [field('id', 'integer', { path: 'id' })] }),
  route({
    name: 'notes.archive',
    method: 'POST',
    path: '/notes/{id}',
    fields: [field('id', 'integer', { path: 'id' }), field('title', 'string', { json: 'title' })],
  }),
  route({ name: 'tokens.delete', method: 'DELETE', path: '/tokens/{id}', fields: [field('id', 'integer', { path: 'id' })] }),
];

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ routes, handlers: Object.fromEntries(routes.map((r) => [r.name, who])) });
});
afterAll(closeAll);

describe('Routing | unknown path: 404', () => {
  it('answers 404 problem details for API clients', async () => {
    const res = await call(`${server.url}/missing/thing?x=1`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'Nothing is served at /missing/thing.',
      request_id: res.headers.get('x-request-id'),
    });
    expect(res.headers.get('allow')).toBeNull();
  });
});

describe('Routing | known path, wrong method: 405 with Allow', () => {
  it('lists the methods of the path, HEAD included with GET', async () => {
    const res = await call(`${server.url}/notes`, { method: 'DELETE', headers: { accept: 'application/json' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(res.json()).toMatchObject({
      title: 'Method Not Allowed',
      status: 405,
      detail: 'The method DELETE is not allowed for /notes; use GET, HEAD, POST.',
    });
  });

  it('lists every method of a parametric path', async () => {
    const res = await call(`${server.url}/tokens/3`, { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('DELETE');
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });
});

describe('Routing | HEAD is served by GET', () => {
  it('answers HEAD on a GET route without a body', async () => {
    const res = await call(`${server.url}/notes/5`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
});

describe('Routing | method override with _method', () => {
  it('from the query of a POST', async () => {
    for (const [value, name] of [
      ['PUT', 'notes.update'],
      ['patch', 'notes.patch'],
      ['Delete', 'notes.delete'],
    ]) {
      const res = await call(`${server.url}/notes/5?_method=${value}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"title":"q"}',
      });
      expect(res.status, value).toBe(200);
      expect(res.json()).toMatchObject({ route: name, method: value!.toUpperCase(), id: 5 });
    }
  });

  it('from an URL-encoded body, whose fields still bind', async () => {
    const put = await postForm(`${server.url}/notes/6`, [
      ['_method', 'PUT'],
      ['title', 'Renamed'],
    ]);
    expect(put.json()).toEqual({ route: 'notes.update', method: 'PUT', id: 6, title: 'Renamed' });
    const del = await postForm(`${server.url}/notes/6`, [['_method', 'delete']]);
    expect(del.json()).toEqual({ route: 'notes.delete', method: 'DELETE', id: 6 });
  });

  it('an URL-encoded POST without _method keeps its body and stays a POST', async () => {
    const res = await postForm(`${server.url}/notes/6`, [['title', 'Archived']]);
    expect(res.json()).toEqual({ route: 'notes.archive', method: 'POST', id: 6, title: 'Archived' });
    const created = await postForm(`${server.url}/notes`, [['title', 'New']]);
    expect(created.json()).toEqual({ route: 'notes.create', method: 'POST', title: 'New' });
  });

  it('applies before route selection: a path without a route for the target method is 405', async () => {
    const res = await postForm(`${server.url}/notes`, [
      ['title', 'New'],
      ['_method', 'PUT'],
    ]);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('only PUT, PATCH and DELETE: other values are ignored', async () => {
    for (const value of ['GET', 'HEAD', 'OPTIONS', 'TRACE', 'x']) {
      const res = await postForm(`${server.url}/notes/7?_method=${value}`, [['title', 't']]);
      expect(res.json(), value).toMatchObject({ route: 'notes.archive', method: 'POST' });
      const fromBody = await postForm(`${server.url}/notes/7`, [
        ['_method', value],
        ['title', 't'],
      ]);
      expect(fromBody.json(), value).toMatchObject({ route: 'notes.archive', method: 'POST' });
    }
  });

  it('only on POST', async () => {
    const res = await call(`${server.url}/notes/8?_method=DELETE`);
    expect(res.json()).toMatchObject({ route: 'notes.show', method: 'GET' });
  });

  it('a multipart body is not read for it (the query still is)', async () => {
    const form = new FormData();
    form.append('_method', 'DELETE');
    form.append('title', 'multi');
    const ignored = await call(`${server.url}/notes/9`, { method: 'POST', body: form });
    expect(ignored.json()).toEqual({ route: 'notes.archive', method: 'POST', id: 9, title: 'multi' });
    const viaQuery = await call(`${server.url}/notes/9?_method=PATCH`, { method: 'POST', body: form });
    expect(viaQuery.json()).toEqual({ route: 'notes.patch', method: 'PATCH', id: 9, title: 'multi' });
  });

  it('an overridden method without a route at the path is 405', async () => {
    const res = await postForm(`${server.url}/tokens/1`, [['_method', 'PATCH']]);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('DELETE');
  });

  it('a large URL-encoded body arriving in many chunks is read for _method and still bound whole', async () => {
    const title = 'x'.repeat(600_000);
    const res = await postForm(`${server.url}/notes/4`, [
      ['title', title],
      ['_method', 'PATCH'],
    ]);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ route: 'notes.patch', method: 'PATCH', id: 4, title });
  });

  it('a body over the limit is not read for _method: 413', async () => {
    const body = `title=${'x'.repeat(1024 * 1024)}&_method=PUT`;
    const res = await postForm(`${server.url}/notes/1`, [['title', body]]);
    expect(res.status).toBe(413);
    const chunked = await rawRequest(`${server.url}/notes/1`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'transfer-encoding': 'chunked', accept: 'application/json' },
      body,
    });
    expect(chunked.status).toBe(413);
  });

  it('a chunked URL-encoded body (no Content-Length) is not read for _method', async () => {
    const res = await rawRequest(`${server.url}/notes/3`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'transfer-encoding': 'chunked' },
      body: '_method=DELETE&title=c',
    });
    expect(JSON.parse(res.body)).toEqual({ route: 'notes.archive', method: 'POST', id: 3, title: 'c' });
  });
});
