/**
 * Body limits (docs/http.md "Body limits"): a route's own `bodyLimit`, the
 * limit its input implies, `HTTP_MAX_BODY`; JSON depth and key counts and
 * form field counts refused by a scan before the body is parsed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFormShape, checkJsonShape } from '../../../runtime/binding/json-limits.js';
import { IMPLIED_FLOOR, impliedBodyLimit, routeBodyLimit } from '../../../runtime/http/body-limit.js';
import { field, route } from './support/routes.js';
import { call, closeAll, postJson, startServer, type TestServer } from './support/server.js';

const MAX = 1024 * 1024;
const login = route({
  name: 'login',
  method: 'POST',
  path: '/login',
  fields: [
    field('email', 'string', { json: 'email' }, ['required', 'max:255']),
    field('password', 'string', { json: 'password' }, ['required', 'min:8', 'max:1000', 'confirmed']),
    field('password_confirmation', 'string', { json: 'password_confirmation' }),
    field('remember', 'boolean', { json: 'remember' }),
  ],
});
const free = route({ name: 'free', method: 'POST', path: '/free', fields: [field('data', 'json', { json: 'data' })] });
const own = { ...route({ name: 'own', method: 'POST', path: '/own', fields: [field('data', 'json', { json: 'data' })] }), bodyLimit: 4096 };

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    maxBodyBytes: MAX,
    maxJsonDepth: 8,
    maxJsonKeys: 100,
    routes: [login, free, own],
    handlers: { login: () => ({ ok: true }), free: () => ({ ok: true }), own: () => ({ ok: true }) },
  });
});
afterAll(closeAll);

describe('Body limits | per route', () => {
  it('a route whose fields all have a bound gets the limit they imply (at least 64 KiB); one without a bound gets HTTP_MAX_BODY; bodyLimit wins', () => {
    expect(routeBodyLimit(login, MAX)).toEqual({ bytes: IMPLIED_FLOOR, source: 'implied' });
    expect(routeBodyLimit(free, MAX)).toEqual({ bytes: MAX, source: 'HTTP_MAX_BODY' });
    expect(routeBodyLimit(own, MAX)).toEqual({ bytes: 4096, source: 'route' });
    // 10,000 characters of 12 bytes each, plus 16 KiB and the name: above the floor.
    expect(impliedBodyLimit([field('body', 'string', { json: 'body' }, ['max:10000'])])).toBe(
      Math.ceil((16 * 1024 + 120_000 + 12 + 16) / 1024) * 1024,
    );
    // A list needs an item count and items with a bound.
    expect(impliedBodyLimit([field('tags', 'string[]', { json: 'tags' }, ['max:5'])])).toBeUndefined();
    expect(impliedBodyLimit([field('tags', 'string[]', { json: 'tags' }, ['max:5', 'each:max:20'])])).toBe(IMPLIED_FLOOR);
    expect(impliedBodyLimit([field('tags', 'string[]', { json: 'tags' }, ['each:max:20'])])).toBeUndefined();
    expect(impliedBodyLimit([field('file', 'file', { form: 'file' })])).toBeUndefined();
  });

  it('413 names where the limit comes from', async () => {
    const implied = await postJson(`${server.url}/login`, { email: 'a@b.c', password: 'x'.repeat(70_000) });
    expect(implied.status).toBe(413);
    expect(implied.json().detail).toBe(
      "The request body is larger than this route's limit of 65536 bytes (implied by its input fields; bodyLimit changes it).",
    );
    const ownLimit = await postJson(`${server.url}/own`, { data: 'x'.repeat(5000) });
    expect(ownLimit.json().detail).toBe("The request body is larger than this route's limit of 4096 bytes (bodyLimit).");
    const global = await postJson(`${server.url}/free`, { data: 'x'.repeat(MAX) });
    expect(global.json().detail).toBe(`The request body is larger than the limit of ${MAX} bytes (HTTP_MAX_BODY).`);
    expect((await postJson(`${server.url}/free`, { data: 'x'.repeat(500_000) })).status).toBe(200);
  });
});

describe('Body limits | JSON depth and keys, before parsing', () => {
  const nested = (levels: number) => `{"data":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
  const send = (body: string, type = 'application/json') =>
    call(`${server.url}/free`, { method: 'POST', headers: { 'content-type': type, accept: 'application/json' }, body });

  it('HTTP_MAX_JSON_DEPTH: 8 levels pass, 9 are 400 BINDERY_JSON_TOO_DEEP', async () => {
    expect((await send(nested(8))).status).toBe(200);
    const deep = await send(nested(9));
    expect(deep.status).toBe(400);
    expect(deep.json().detail).toBe('The JSON body nests objects and arrays more than 8 levels deep (HTTP_MAX_JSON_DEPTH).');
  });

  it('HTTP_MAX_JSON_KEYS counts members and items: 100 pass, 101 are 413 BINDERY_JSON_TOO_MANY_KEYS; a form counts its fields', async () => {
    const items = (n: number) => JSON.stringify({ data: Array.from({ length: n - 1 }, (_, i) => i) });
    expect((await send(items(100))).status).toBe(200);
    const many = await send(items(101));
    expect(many.status).toBe(413);
    expect(many.json().detail).toBe('The JSON body has more than 100 keys and items (HTTP_MAX_JSON_KEYS).');
    const form = await send(Array.from({ length: 101 }, (_, i) => `f${i}=1`).join('&'), 'application/x-www-form-urlencoded');
    expect(form.status).toBe(413);
    expect(form.json().detail).toBe('The form body has more than 100 fields (HTTP_MAX_JSON_KEYS).');
  });

  it('the scan reads strings and escapes right, and stops at the first limit passed', () => {
    const limits = { maxDepth: 3, maxKeys: 5 };
    expect(checkJsonShape('{"a":"[[[[[[","b":"\\\\\\"{{{{","c":[1,2]}', limits)).toBeUndefined();
    expect(checkJsonShape('{"a":[[[]]]}', limits)?.code).toBe('BINDERY_JSON_TOO_DEEP');
    expect(checkJsonShape('[[]]', limits)).toBeUndefined();
    expect(checkJsonShape('{"a":1,"b":2,"c":3,"d":4,"e":5}', limits)).toBeUndefined();
    expect(checkJsonShape('{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}', limits)?.code).toBe('BINDERY_JSON_TOO_MANY_KEYS');
    expect(checkJsonShape('[1,2,3,4,5,[]]', limits)?.code).toBe('BINDERY_JSON_TOO_MANY_KEYS');
    expect(checkJsonShape('{"a":[]}', limits)).toBeUndefined();
    // Each scan starts afresh: arrays at depth 2 before do not make the commas of objects at depth 2 count as items.
    expect(checkJsonShape('[[1,2],[3]]', limits)).toBeUndefined();
    expect(checkJsonShape('{"x":{"a":1,"b":2,"c":3,"d":4}}', limits)).toBeUndefined();
    // A deeper limit than any scan before.
    expect(checkJsonShape('['.repeat(40) + ']'.repeat(40), { maxDepth: 40, maxKeys: 100 })).toBeUndefined();
    expect(checkJsonShape('['.repeat(41), { maxDepth: 40, maxKeys: 100 })?.code).toBe('BINDERY_JSON_TOO_DEEP');
    // 10 MB of brackets: refused at the 4th, in well under a millisecond per megabyte.
    const started = performance.now();
    expect(checkJsonShape('['.repeat(10_000_000), limits)?.code).toBe('BINDERY_JSON_TOO_DEEP');
    expect(checkFormShape(Buffer.from('a=1&b=2&c=3&d=4&e=5&f=6'), limits)?.code).toBe('BINDERY_JSON_TOO_MANY_KEYS');
    expect(performance.now() - started).toBeLessThan(50);
  });
});
