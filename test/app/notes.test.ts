/**
 * The notes reference app end to end (docs/spec.md 2.7, 4.3): the
 * real app definition, generated routes and migrations, real HTTP, real
 * PostgreSQL.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bootTestKit, type TestKit } from 'bindery/testing';
import notesApp from '../../app/main.js';
import type { Handlers } from '../../generated/handlers.js';
import { routes } from '../../generated/routes.js';
import type { Database } from '../../generated/types.js';
import { testServerUrl } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';

let t: TestKit<Handlers, Database>;

beforeAll(async () => {
  t = await bootTestKit<Handlers, Database>(notesApp, { routes, serverUrl: testServerUrl(), prefix: 'notes', env: referenceAppEnv });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.db.deleteFrom('notes').execute();
});

const json = { 'content-type': 'application/json', accept: 'application/json' };

/**
 * A session cookie and a masked CSRF token, as a browser gets them from the
 * form page: the web group runs [session, csrf], so form posts need both
 * (JSON bodies without a session cookie need neither; docs/csrf.md).
 */
async function formSession(): Promise<{ cookie: string; token: string }> {
  const res = await fetch(`${t.url}/notes/new`);
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  const token = /name="_token" value="([^"]+)"/.exec(await res.text())![1]!;
  return { cookie, token };
}

/** DELETE as an API client: a JSON body without a session cookie is exempt from CSRF. */
const _jsonDelete = { method: 'DELETE', headers: json, body: '{}' };

async function post(body: unknown, headers: Record<string, string> = json) {
  return fetch(`${t.url}/notes`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    redirect: 'manual',
  });
}

describe('notes.create | POST /notes', () => {
  it('creates a note from JSON: 201, Location, RFC 3339 created_at, stored in PostgreSQL', async () => {
    const res = await post({ title: 'Groceries', body: 'milk', tags: ['home', 'to-do'] });
    expect(res.status).toBe(201);
    const note = (await res.json()) as any;
    expect(res.headers.get('location')).toBe(`/notes/${note.id}`);
    expect(note).toEqual({
      id: expect.any(Number),
      title: 'Groceries',
      body: 'milk',
      tags: ['home', 'to-do'],
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/),
    });
    const row = await t.db.selectFrom('notes').selectAll().where('id', '=', note.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ title: 'Groceries', body: 'milk', tags: ['home', 'to-do'] });
  });

  it('omits tags from the JSON when empty', async () => {
    const note = (await (await post({ title: 'No tags' })).json()) as any;
    expect(note).not.toHaveProperty('tags');
    expect(Object.keys(note)).toEqual(['id', 'title', 'body', 'created_at']);
  });

  it('creates a note from a URL-encoded form with repeated tags', async () => {
    const { cookie, token } = await formSession();
    const res = await post(`title=From+a+form&body=hi&tags=a&tags=b&_token=${token}`, {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      cookie,
    });
    expect(res.status).toBe(201);
    expect((await res.json()) as any).toMatchObject({ title: 'From a form', body: 'hi', tags: ['a', 'b'] });
  });

  it('checks the rules before the "untitled" check: only errors.tags for {"title":"Untitled","tags":["a","a"]}', async () => {
    const res = await post({ title: 'Untitled', tags: ['a', 'a'] });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await res.json()) as any;
    expect(problem).toEqual({
      type: 'about:blank',
      title: expect.any(String),
      status: 422,
      detail: 'The given data was invalid.',
      errors: { tags: 'The tags field has a duplicate value.' },
      request_id: res.headers.get('x-request-id'),
    });
    expect(await t.db.selectFrom('notes').select('id').execute()).toEqual([]);
  });

  it('refuses a title equal to "untitled" ignoring case and spaces, once the rules pass', async () => {
    for (const title of ['untitled', ' UnTitled ', 'un titled']) {
      const res = await post({ title });
      expect(res.status).toBe(422);
      expect(Object.keys(((await res.json()) as any).errors)).toEqual(['title']);
    }
  });

  it('reports each field by its rules, in field order, the first failing rule only', async () => {
    const res = await post({ title: 'x'.repeat(201), body: 'b'.repeat(10_001), tags: ['a', 'b', 'c', 'd', 'e', 'f'] });
    const problem = (await res.json()) as any;
    expect(Object.keys(problem.errors)).toEqual(['title', 'body', 'tags']);
    expect(problem.errors).toEqual({
      title: 'The title field must not be greater than 200 characters.',
      body: 'The body field must not be greater than 10000 characters.',
      tags: 'The tags field must not have more than 5 items.',
    });
  });

  it('requires a title and checks each tag is alpha_dash', async () => {
    const res = await post({ tags: ['ok', 'not ok'] });
    expect(((await res.json()) as any).errors).toEqual({
      title: 'The title field is required.',
      tags: 'The tags.1 field must only contain letters, numbers, dashes, and underscores.',
    });
  });

  it('answers 415 for text/plain and 413 over HTTP_MAX_BODY', async () => {
    expect((await post('title=x', { 'content-type': 'text/plain' })).status).toBe(415);
    const big = JSON.stringify({ title: 'big', body: 'x'.repeat(11 * 1024 * 1024) });
    expect((await post(big)).status).toBe(413);
  });
});

describe('notes.list | GET /notes', () => {
  it('answers a page { data, next }: newest first, 20 by default, up to limit', async () => {
    for (let i = 1; i <= 22; i++) expect((await t.request('notes.create', { title: `note ${i}` })).status).toBe(201);
    const all = (await t.request('notes.list')).body;
    expect(all.data).toHaveLength(20);
    expect(all.data[0]!.title).toBe('note 22');
    expect(all.data[19]!.title).toBe('note 3');
    expect(all.next).toEqual(expect.any(String));
    const three = (await t.request('notes.list', { limit: 3 })).body;
    expect(three.data.map((n) => n.title)).toEqual(['note 22', 'note 21', 'note 20']);
    expect((await t.request('notes.list', { limit: 0 })).body).toEqual({ data: [], next: null });
    expect((await t.request('notes.list', { limit: -1 })).status).toBe(422);
  });

  it('treats an empty limit as absent, refuses 101 (422) and non-integers (400)', async () => {
    expect((await fetch(`${t.url}/notes?limit=`, { headers: { accept: 'application/json' } })).status).toBe(200);
    const over = await fetch(`${t.url}/notes?limit=101`, { headers: { accept: 'application/json' } });
    expect(over.status).toBe(422);
    expect(((await over.json()) as any).errors).toEqual({ limit: 'The limit field must not be greater than 100.' });
    const bad = await fetch(`${t.url}/notes?limit=ten`, { headers: { accept: 'application/json' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()) as any).toMatchObject({
      detail: 'The request has invalid values.',
      errors: { limit: 'The limit field must be an integer.' },
    });
  });
});

describe('notes.show and notes.delete | /notes/{id}', () => {
  it('shows a note, deletes it (204), then both answer 404 problem details', async () => {
    const { id } = (await t.request('notes.create', { title: 'Short-lived' })).body;
    const shown = await t.request('notes.show', { id });
    expect(shown.status).toBe(200);
    expect(shown.body.title).toBe('Short-lived');
    const deleted = await t.request('notes.delete', { id });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    for (const gone of [await t.request('notes.show', { id }), await t.request('notes.delete', { id })]) {
      expect(gone.status).toBe(404);
      expect(gone.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(gone.body).toMatchObject({ type: 'about:blank', status: 404, detail: `Note ${id} does not exist.` });
    }
  });

  it('deletes through a form POST with _method=DELETE', async () => {
    const { id } = (await (await post({ title: 'Override me' })).json()) as any;
    const { cookie, token } = await formSession();
    const res = await fetch(`${t.url}/notes/${id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', cookie },
      body: `_method=DELETE&_token=${token}`,
    });
    expect(res.status).toBe(204);
    expect(await t.db.selectFrom('notes').select('id').where('id', '=', id).execute()).toEqual([]);
  });

  it('answers 400 for a non-integer id', async () => {
    expect((await fetch(`${t.url}/notes/abc`, { headers: { accept: 'application/json' } })).status).toBe(400);
  });
});

describe('notes.new | GET /notes/new', () => {
  it('serves an HTML form posting to /notes', async () => {
    const res = await fetch(`${t.url}/notes/new`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('<form method="post" action="/notes">');
    expect(html).toMatch(/name="title"/);
  });

  it('sends a browser form post on to the new note (303)', async () => {
    const { cookie, token } = await formSession();
    const res = await post(`title=Browser+note&_token=${token}`, {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html',
      'sec-fetch-mode': 'navigate',
      cookie,
    });
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    expect(location).toMatch(/^\/notes\/\d+$/);
    const page = await fetch(t.url + location, { headers: { accept: 'text/html' } });
    expect(await page.text()).toContain('<h1>Browser note</h1>');
  });
});
