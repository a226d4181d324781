/**
 * Nested input objects and the `lists` error format over real HTTP, from
 * YAML through the generator's model and validator (docs/schema-language.md
 * "Nested input", "Error formats"; docs/errors.md "Error formats").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../../runtime/errors/http-error.js';
import { ValidationError } from '../../../runtime/errors/validation-error.js';
import type { HttpServerOptions } from '../../../runtime/http/server-options.js';
import { closeAll, postJson, startServer, call, type TestServer } from './support/server.js';
import { routesFromYaml } from './support/model-routes.js';

const USER_FIELDS = `
        type: object
        validate: [required]
        fields:
          email:    { type: string, validate: [required, email, "max:40"] }
          username: { type: string, validate: [required, alpha_dash] }
          password: { type: string, validate: [required, "min:8", confirmed] }
          password_confirmation: { type: string }
          bio:      { type: string, nullable: true }
          age:      { type: integer, validate: ["min:13"] }
          prefs:
            type: object
            nullable: true
            fields:
              theme: { type: enum, values: [light, dark], default: light }
              tags:  { type: "string[]", validate: ["max:3", "each:alpha_dash"] }`;

const SCHEMA = `
groups:
  problem: { middleware: [] }
  conduit:
    middleware: []
    errors:
      format: lists
      keys: leaf
      messages: { required: "can't be empty", email: is invalid }
  paths: { middleware: [], errors: lists }
routes:
  problem.users:
    method: POST
    path: /problem/users
    group: problem
    input:
      user:${USER_FIELDS}
      note: { type: string }
    result: ok
  conduit.users:
    method: POST
    path: /conduit/users
    group: conduit
    input:
      user:${USER_FIELDS}
    result: ok
  conduit.missing:
    method: GET
    path: /conduit/missing
    group: conduit
    result: ok
  paths.users:
    method: POST
    path: /paths/users
    group: paths
    input:
      user:${USER_FIELDS}
    result: ok
`;

const echo = (input: unknown) => input;
let server: TestServer;

beforeAll(async () => {
  const routes = await routesFromYaml(SCHEMA);
  const handlers: HttpServerOptions['handlers'] = {
    'problem.users': echo,
    'conduit.users': (input: any) => {
      if (input.user.email === 'taken@example.com') throw new ValidationError({ 'user.email': 'has already been taken' });
      return input;
    },
    'conduit.missing': () => {
      throw new HttpError('BINDERY_NOT_FOUND', 'No such article.');
    },
    'paths.users': echo,
  };
  server = await startServer({ routes, handlers });
});
afterAll(closeAll);

const good = { email: 'ada@example.com', username: 'ada', password: 'correct horse', password_confirmation: 'correct horse' };

describe('nested input', () => {
  it('binds the object with its fields in field order, defaults filled, undeclared members dropped', async () => {
    const res = await postJson(`${server.url}/problem/users`, {
      user: { ...good, extra: 'dropped', prefs: { tags: ['a', 'b'] } },
      note: 'hi',
    });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      user: { ...good, prefs: { theme: 'light', tags: ['a', 'b'] } },
      note: 'hi',
    });
    expect(Object.keys(res.json().user)).toEqual(['email', 'username', 'password', 'password_confirmation', 'prefs']);
  });

  it('keeps a nullable nested object null, and leaves an absent optional one out', async () => {
    expect((await postJson(`${server.url}/problem/users`, { user: { ...good, prefs: null } })).json().user.prefs).toBeNull();
    expect((await postJson(`${server.url}/problem/users`, { user: good })).json().user).not.toHaveProperty('prefs');
  });

  it('answers 422 keyed by path for failing nested rules, in problem details', async () => {
    const res = await postJson(`${server.url}/problem/users`, {
      user: { email: 'nope', username: 'a b', password: 'short', age: 3, prefs: { tags: ['ok', 'bad tag'] } },
    });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.json().errors).toEqual({
      'user.email': 'The email field must be a valid email address.',
      'user.username': 'The username field must only contain letters, numbers, dashes, and underscores.',
      'user.password': 'The password field must be at least 8 characters.',
      'user.age': 'The age field must be at least 13.',
      'user.prefs.tags': expect.stringContaining('tags.1'),
    });
  });

  it('checks cross-field rules inside the object', async () => {
    const res = await postJson(`${server.url}/problem/users`, { user: { ...good, password_confirmation: 'other thing' } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['user.password']);
  });

  it('answers 422 for a missing object, and for required nested fields of an empty one', async () => {
    const absent = await postJson(`${server.url}/problem/users`, {});
    expect(absent.status).toBe(422);
    expect(absent.json().errors).toEqual({ user: 'The user field is required.' });
    const empty = await postJson(`${server.url}/problem/users`, { user: {} });
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.json().errors)).toEqual(['user.email', 'user.username', 'user.password']);
  });

  it('answers 400 for a value that is not an object, or a nested value of the wrong type', async () => {
    for (const user of ['ada', ['ada'], 5]) {
      const res = await postJson(`${server.url}/problem/users`, { user });
      expect(res.status, JSON.stringify(user)).toBe(400);
      expect(res.json().errors).toEqual({ user: 'The user field must be an object.' });
    }
    const res = await postJson(`${server.url}/problem/users`, { user: { ...good, age: 'old', prefs: { tags: 'x' } } });
    expect(res.status).toBe(400);
    expect(res.json().errors).toEqual({
      'user.age': 'The age field must be an integer.',
      'user.prefs.tags': 'The tags field must be a list.',
    });
  });

  it('refuses U+0000 in nested text, keyed by path', async () => {
    const res = await postJson(`${server.url}/problem/users`, { user: { ...good, bio: 'a\u0000b' } });
    expect(res.status).toBe(422);
    expect(res.json().errors).toEqual({ 'user.bio': 'The bio field must not contain a NUL character.' });
  });
});

describe('the lists error format', () => {
  it('answers validation failures as { errors: { field: [messages] } } with the group messages and leaf keys', async () => {
    const res = await postJson(`${server.url}/conduit/users`, { user: { email: 'nope', password: 'correct horse' } });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual({
      errors: { email: ['is invalid'], username: ["can't be empty"], password: ['The password field confirmation does not match.'] },
    });
    expect((await postJson(`${server.url}/conduit/users`, {})).json()).toEqual({ errors: { user: ["can't be empty"] } });
  });

  it("writes a handler's own ValidationError under the client's leaf name", async () => {
    const res = await postJson(`${server.url}/conduit/users`, { user: { ...good, email: 'taken@example.com' } });
    expect(res.status).toBe(422);
    expect(res.json()).toEqual({ errors: { email: ['has already been taken'] } });
  });

  it('keeps whole paths with keys: path', async () => {
    const res = await postJson(`${server.url}/paths/users`, { user: { ...good, email: 'nope' } });
    expect(res.json()).toEqual({ errors: { 'user.email': ['The email field must be a valid email address.'] } });
  });

  it('lists an error about no field under "body", with its status', async () => {
    const res = await call(`${server.url}/conduit/missing`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ errors: { body: ['No such article.'] } });
    const bad = await call(`${server.url}/conduit/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"user":',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual(['body']);
  });
});
