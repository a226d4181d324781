/**
 * docs/spec.md 4.5 "Binding order", every step, over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../../runtime/errors/http-error.js';
import { ValidationError } from '../../../runtime/errors/validation-error.js';
import { field, route } from './support/routes.js';
import { call, closeAll, postForm, postJson, startServer, type TestServer } from './support/server.js';

const echo = (input: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(input).map(([k, v]) => [k, v === undefined ? '<absent>' : v instanceof Date ? `Date(${v.toISOString()})` : v]),
  );

const mixed = route({
  name: 'mixed',
  method: 'POST',
  path: '/mixed/{id}',
  fields: [
    field('title', 'string', { json: 'title' }),
    field('id', 'integer', { path: 'id' }),
    field('limit', 'integer', { query: 'limit' }, [], 20),
    field('flag', 'boolean', { query: 'flag' }),
    field('token', 'string', { header: 'x-token' }),
  ],
});

const rules = route({
  name: 'rules',
  method: 'POST',
  path: '/rules',
  fields: [
    field('title', 'string', { json: 'title' }, ['required', 'min:5', 'alpha']),
    field('display_name', 'string', { json: 'displayName', form: 'display_name' }, ['required', 'max:3']),
    field('tags', 'string[]', { json: 'tags' }, ['max:3', 'distinct', 'each:alpha_dash']),
    field('password', 'string', { json: 'password' }, ['confirmed', 'min:8']),
    field('password_confirmation', 'string', { json: 'password_confirmation' }),
  ],
});

let extraCalls = 0;
const extra = route({
  name: 'extra',
  method: 'POST',
  path: '/extra',
  fields: [field('title', 'string', { json: 'title' }, ['required']), field('mode', 'string', { json: 'mode' })],
});

const conversions = route({
  name: 'conversions',
  method: 'POST',
  path: '/conversions',
  fields: [
    field('wait', 'duration', { json: 'wait' }),
    field('every', 'duration', { query: 'every' }),
    field('at', 'timestamp', { json: 'at' }),
    field('since', 'timestamp', { query: 'since' }),
    field('on', 'boolean', { query: 'on' }),
    field('strict', 'boolean', { json: 'strict' }),
    field('parent', 'integer?', { json: 'parent' }),
    field('size', 'integer', { json: 'size' }, [], 10),
    field('ratio', 'number', { query: 'ratio' }),
    field('ids', 'integer[]', { query: 'id' }),
    field('meta', 'json', { json: 'meta' }),
  ],
});

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    routes: [mixed, rules, extra, conversions],
    handlers: {
      mixed: echo,
      rules: echo,
      conversions: echo,
      extra: {
        validate: (input: { title: string; mode?: string }) => {
          extraCalls++;
          if (input.mode === 'field') throw new ValidationError({ title: 'The :attribute must not be "untitled".' });
          if (input.mode === 'conflict') throw new HttpError(409, 'This title is taken.');
          if (input.mode === 'status') throw Object.assign(new Error('Slow down.'), { statusCode: 429 });
          if (input.mode === 'crash') throw new Error('database exploded with password hunter2');
        },
        handle: (input: Record<string, unknown>) => echo(input),
      },
    },
  });
});
afterAll(closeAll);

describe('Binding order | 1. the body is decoded first', () => {
  it('a body of another content type is 415 even when query values are bad', async () => {
    const res = await call(`${server.url}/mixed/1?limit=abc`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', accept: 'application/json' },
      body: 'hello',
    });
    expect(res.status).toBe(415);
  });

  it('a malformed JSON body is 400 for the body, before any conversion', async () => {
    const res = await call(`${server.url}/mixed/x?limit=abc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title":',
    });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ detail: 'The request body is not valid JSON.' });
    expect(res.json().errors).toBeUndefined();
  });
});

describe('Binding order | 2. query, header and path values; the body cannot set them', () => {
  it('binds each from its own source and ignores the same names in the body', async () => {
    const res = await postJson(
      `${server.url}/mixed/7?limit=3`,
      { title: 'T', id: 99, limit: 50, flag: true, token: 'from-body' },
      { 'x-token': 'from-header' },
    );
    expect(res.json()).toEqual({ title: 'T', id: 7, limit: 3, flag: '<absent>', token: 'from-header' });
  });

  it('a query field set only in the body stays absent (its default applies)', async () => {
    const res = await postJson(`${server.url}/mixed/7`, { limit: 50 });
    expect(res.json().limit).toBe(20);
  });

  it('an empty query value of a non-string field counts as absent: the default applies', async () => {
    const res = await postJson(`${server.url}/mixed/7?limit=&flag=`, {});
    expect(res.json()).toMatchObject({ limit: 20, flag: '<absent>' });
  });
});

describe('Binding order | 3. conversion failures: 400 listing every bad field', () => {
  it('lists each field that failed, in field order, by client names', async () => {
    const res = await call(`${server.url}/mixed/abc?limit=1.5&flag=maybe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{"title":5}',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    const body = res.json();
    expect(body).toEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: 'The request has invalid values.',
      errors: {
        title: 'The title field must be a string.',
        id: 'The id field must be an integer.',
        limit: 'The limit field must be an integer.',
        flag: 'The flag field must be true or false.',
      },
      request_id: res.headers.get('x-request-id'),
    });
    expect(Object.keys(body.errors)).toEqual(['title', 'id', 'limit', 'flag']);
  });

  it('rules do not run when a conversion failed', async () => {
    const res = await postJson(`${server.url}/rules`, { title: 'ab', displayName: 'toolong', tags: 'not-a-list' });
    expect(res.status).toBe(400);
    expect(res.json().errors).toEqual({ tags: 'The tags field must be a list.' });
  });
});

describe('Binding order | 4. rules: 422, only the first failing rule of each field', () => {
  it('reports the first failing rule per field, keys in field order, JSON names for a JSON body', async () => {
    const res = await postJson(`${server.url}/rules`, {
      title: 'ab1',
      displayName: 'abcd',
      tags: ['a', 'b c', 'a'],
      password: 'short',
      password_confirmation: 'other',
    });
    expect(res.status).toBe(422);
    const body = res.json();
    expect(body.detail).toBe('The given data was invalid.');
    expect(body.title).toBe('Unprocessable Content');
    expect(body.errors).toEqual({
      title: 'The title field must be at least 5 characters.',
      displayName: 'The displayName field must not be greater than 3 characters.',
      tags: 'The tags field has a duplicate value.',
      password: 'The password field confirmation does not match.',
    });
    expect(Object.keys(body.errors)).toEqual(['title', 'displayName', 'tags', 'password']);
  });

  it('names form fields by their form names, with "_" as spaces in messages', async () => {
    const res = await postForm(`${server.url}/rules`, [
      ['title', 'Hello'],
      ['display_name', 'abcd'],
    ]);
    expect(res.status).toBe(422);
    expect(res.json().errors).toEqual({ display_name: 'The display name field must not be greater than 3 characters.' });
  });

  it('names the first failing item of an each rule', async () => {
    const res = await postJson(`${server.url}/rules`, { title: 'Hello', displayName: 'ab', tags: ['ok', 'b c', 'd e'] });
    expect(res.json().errors).toEqual({ tags: 'The tags.1 field must only contain letters, numbers, dashes, and underscores.' });
  });

  it('reports missing required fields', async () => {
    const res = await postJson(`${server.url}/rules`, {});
    expect(res.json().errors).toEqual({ title: 'The title field is required.', displayName: 'The displayName field is required.' });
  });

  it('a later rule failing alone is reported (cross-field rule passing)', async () => {
    const res = await postJson(`${server.url}/rules`, {
      title: 'Hello',
      displayName: 'ab',
      password: 'short',
      password_confirmation: 'short',
    });
    expect(res.json().errors).toEqual({ password: 'The password field must be at least 8 characters.' });
  });
});

describe("Binding order | 5. the input's own validation, after the rules pass", () => {
  it('does not run when a rule failed', async () => {
    const before = extraCalls;
    const res = await postJson(`${server.url}/extra`, { mode: 'crash' });
    expect(res.status).toBe(422);
    expect(extraCalls).toBe(before);
  });

  it('a field failure gives 422 under the client name', async () => {
    const res = await postJson(`${server.url}/extra`, { title: 'untitled', mode: 'field' });
    expect(res.status).toBe(422);
    expect(res.json().errors).toEqual({ title: 'The title must not be "untitled".' });
  });

  it('an error with its own status keeps it, message shown', async () => {
    const conflict = await postJson(`${server.url}/extra`, { title: 'x', mode: 'conflict' });
    expect(conflict.status).toBe(409);
    expect(conflict.json()).toMatchObject({ title: 'Conflict', detail: 'This title is taken.' });
    const slow = await postJson(`${server.url}/extra`, { title: 'x', mode: 'status' });
    expect(slow.status).toBe(429);
    expect(slow.json().detail).toBe('Slow down.');
  });

  it('any other error gives 500 with the message hidden', async () => {
    const res = await postJson(`${server.url}/extra`, { title: 'x', mode: 'crash' });
    expect(res.status).toBe(500);
    expect(res.json().detail).toBe('An internal error occurred.');
    expect(res.text).not.toContain('hunter2');
  });

  it('passes to the handler when it does not throw', async () => {
    const res = await postJson(`${server.url}/extra`, { title: 'fine' });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ title: 'fine', mode: '<absent>' });
  });
});

describe('Binding | conversions', () => {
  it('durations: text from the query, text or milliseconds from JSON', async () => {
    const res = await postJson(`${server.url}/conversions?every=1h30m`, { wait: '90s' });
    expect(res.json()).toMatchObject({ wait: 90_000, every: 5_400_000 });
    const ms = await postJson(`${server.url}/conversions?every=PT2S`, { wait: 1500 });
    expect(ms.json()).toMatchObject({ wait: 1500, every: 2000 });
    const bad = await postJson(`${server.url}/conversions?every=30`, { wait: 'soon' });
    expect(bad.json().errors).toEqual({
      wait: 'The wait field must be a duration such as 90s, 15m or 1h30m.',
      every: 'The every field must be a duration such as 90s, 15m or 1h30m.',
    });
  });

  it('timestamps: strict RFC 3339 into Date', async () => {
    const res = await postJson(`${server.url}/conversions?since=2024-02-29T23:30:00.250%2B02:00`, { at: '2024-05-01t12:00:00z' });
    expect(res.json()).toMatchObject({ at: 'Date(2024-05-01T12:00:00.000Z)', since: 'Date(2024-02-29T21:30:00.250Z)' });
    for (const bad of [
      '2023-02-29T00:00:00Z',
      '2024-05-01 12:00:00Z',
      '2024-05-01T12:00:00',
      '2024-05-01',
      '2024-13-01T00:00:00Z',
      '2024-05-01T24:00:00Z',
    ]) {
      const res2 = await postJson(`${server.url}/conversions`, { at: bad });
      expect(res2.status, bad).toBe(400);
      expect(res2.json().errors.at).toBe('The at field must be an RFC 3339 date-time such as 2024-05-01T12:00:00Z.');
    }
  });

  it('booleans: true/false/1/0/on/off/yes/no in any case from text; only true/false from JSON', async () => {
    for (const [text, value] of [
      ['TRUE', true],
      ['off', false],
      ['1', true],
      ['No', false],
      ['yes', true],
      ['0', false],
    ] as const) {
      const res = await postJson(`${server.url}/conversions?on=${text}`, {});
      expect(res.json().on, text).toBe(value);
    }
    const bad = await postJson(`${server.url}/conversions?on=maybe`, { strict: 'true' });
    expect(bad.json().errors).toEqual({ on: 'The on field must be true or false.', strict: 'The strict field must be true or false.' });
  });

  it('nullable: JSON null is a value; null on a non-nullable field counts as absent (default applies)', async () => {
    const res = await postJson(`${server.url}/conversions`, { parent: null, size: null });
    expect(res.json()).toMatchObject({ parent: null, size: 10 });
    const absent = await postJson(`${server.url}/conversions`, {});
    expect(absent.json()).toMatchObject({ parent: '<absent>', size: 10 });
  });

  it('numbers, integer lists and unsafe integers', async () => {
    const res = await postJson(`${server.url}/conversions?ratio=-1.5e2&id=1&id=2&id=`, { size: 3 });
    expect(res.json()).toMatchObject({ ratio: -150, ids: [1, 2], size: 3 });
    const bad = await postJson(`${server.url}/conversions?ratio=0x10&id=1&id=two`, { size: 9007199254740993 });
    expect(bad.json().errors).toEqual({
      size: 'The size field must be an integer.',
      ratio: 'The ratio field must be a number.',
      id: 'The id.1 field must be an integer.',
    });
  });

  it('json fields take any JSON value unconverted', async () => {
    const res = await postJson(`${server.url}/conversions`, { meta: { a: [1, { b: null }] } });
    expect(res.json().meta).toEqual({ a: [1, { b: null }] });
  });
});

describe('Binding order | 4. rules: the failure reaches every middleware kind', () => {
  // A rule failure is returned through `before` middleware, not thrown (a throw costs
  // per request); an `around` middleware still sees it as an error it can catch.
  it('an around middleware catches the 422 as a ValidationError; a before middleware chain answers it the same', async () => {
    const seen: unknown[] = [];
    const guarded = route({
      name: 'guarded',
      method: 'POST',
      path: '/guarded',
      fields: [field('title', 'string', { json: 'title' }, ['required', 'min:5'])],
      middleware: ['tx'],
    });
    const plain = route({ ...guarded, name: 'plain', path: '/plain', middleware: ['mark'] });
    const s = await startServer({
      routes: [guarded, plain],
      handlers: { guarded: echo, plain: echo },
      middleware: {
        tx: async (_ctx, next) => {
          try {
            return await next();
          } catch (error) {
            seen.push(error);
            throw error;
          }
        },
        mark: { before: () => undefined },
      },
    });
    for (const path of ['/guarded', '/plain']) {
      const res = await postJson(`${s.url}${path}`, { title: 'abc' });
      expect(res.status, path).toBe(422);
      expect(res.json().errors, path).toEqual({ title: 'The title field must be at least 5 characters.' });
      const ok = await postJson(`${s.url}${path}`, { title: 'abcdef' });
      expect(ok.json(), path).toEqual({ title: 'abcdef' });
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(ValidationError);
  });
});
