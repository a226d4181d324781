/**
 * docs/spec.md 4.5 "Sources by tag", one test per row, over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { field, route } from './support/routes.js';
import { call, closeAll, postForm, postJson, startServer, type TestServer } from './support/server.js';

/** Echo the bound input; absent fields show as "<absent>". */
const echo = (input: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(input).map(([k, v]) => [k, v === undefined ? '<absent>' : v]));

const items = route({
  name: 'items.update',
  method: 'POST',
  path: '/items/{id}',
  fields: [
    field('title', 'string', { json: 'title' }),
    field('display_name', 'string', { json: 'displayName', form: 'display_name' }),
    field('note', 'string', { form: 'note' }),
    field('tags', 'string[]', { query: 'tag' }),
    field('id', 'integer', { path: 'id' }),
    field('token', 'string', { header: 'X-Token' }),
  ],
});
const search = route({
  name: 'search',
  path: '/search',
  fields: [field('q', 'string', { query: 'q' }, ['required'])],
});

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ routes: [items, search], handlers: { 'items.update': echo, search: echo } });
});
afterAll(closeAll);

describe('Sources | json: the JSON body, by JSON names', () => {
  it('binds body fields by their JSON names, and nothing else from the JSON', async () => {
    const res = await postJson(`${server.url}/items/1`, { title: 'T', displayName: 'D', display_name: 'ignored', note: 'ignored' });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ title: 'T', display_name: 'D', note: '<absent>', tags: '<absent>', id: 1, token: '<absent>' });
  });
});

describe('Sources | json: also the form field name when there is no form tag', () => {
  it('binds a json-tagged field from a form field of the same name', async () => {
    const res = await postForm(`${server.url}/items/2`, [['title', 'From form']]);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ title: 'From form', id: 2 });
  });
});

describe('Sources | form: URL-encoded and multipart form fields, by form names', () => {
  it('binds form names from an URL-encoded body; the JSON name does not bind from a form', async () => {
    const res = await postForm(`${server.url}/items/3`, [
      ['display_name', 'D'],
      ['displayName', 'ignored'],
      ['note', 'N'],
    ]);
    expect(res.json()).toEqual({ title: '<absent>', display_name: 'D', note: 'N', tags: '<absent>', id: 3, token: '<absent>' });
  });

  it('binds form names from a multipart body', async () => {
    const form = new FormData();
    form.append('title', 'MT');
    form.append('note', 'MN');
    const res = await call(`${server.url}/items/4`, { method: 'POST', body: form, headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ title: 'MT', note: 'MN', id: 4 });
  });
});

describe('Sources | query: the query string; lists collect repeated values', () => {
  it.each([
    ['?tag=a&tag=b&tag=c', ['a', 'b', 'c']],
    ['?tag=solo', ['solo']],
    ['?tag[]=x&tag[]=y', ['x', 'y']],
    ['', '<absent>'],
  ])('%s binds tags %j', async (query, tags) => {
    const res = await postJson(`${server.url}/items/5${query}`, {});
    expect(res.json().tags).toEqual(tags);
  });
});

describe('Sources | path: the path wildcard', () => {
  it('binds {id} converted to an integer', async () => {
    const res = await postJson(`${server.url}/items/42`, {});
    expect(res.json().id).toBe(42);
  });
});

describe('Sources | header: a request header, by lower-cased name', () => {
  it('binds X-Token', async () => {
    const res = await postJson(`${server.url}/items/6`, {}, { 'X-Token': 'abc' });
    expect(res.json().token).toBe('abc');
  });
});

describe('Sources | validate: rules checked after binding, not a source', () => {
  it('a rule does not bind a value: the required query field sent in the body is still missing', async () => {
    const res = await call(`${server.url}/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{"q":"x"}',
    });
    expect(res.status).toBe(405);
    const missing = await call(`${server.url}/search`, { headers: { accept: 'application/json' } });
    expect(missing.status).toBe(422);
    expect(missing.json().errors).toEqual({ q: 'The q field is required.' });
    const given = await call(`${server.url}/search?q=x`);
    expect(given.status).toBe(200);
    expect(given.json()).toEqual({ q: 'x' });
  });
});
