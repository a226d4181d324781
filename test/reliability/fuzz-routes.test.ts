/**
 * Property-based fuzzing of every generated route (docs/reliability.md):
 * fast-check builds requests — path values, query strings, JSON, form and
 * multipart bodies, content types — from each route's own field names plus
 * hostile text, sent anonymously, with a bearer token, with a signed-in
 * session and its CSRF token, or with the webhook's credentials. Property:
 * the server answers every one (no reset), below 500, with a request ID.
 *
 * CI runs a few hundred requests; `npm run test:stress` runs 10,000.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes as appRoutes } from '../../generated/routes.js';
import { routes as pluginRoutes } from '../../plugins/mailprovider/generated/routes.js';
import { referenceAppEnv } from '../support/reference-app-env.js';
import { bearerFor, bootReferenceApp, makeAccount, signIn, type ReferenceApp } from '../app/tokens-support.js';
import { httpClient, type RawReply, type RawRequest } from './support/http-client.js';
import { size } from './support/scale.js';

interface FuzzRoute {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly middleware: readonly string[];
  readonly fields: ReadonlyArray<{
    key: string;
    source: string;
    json?: string;
    form?: string;
    name?: string;
    type: { kind: string; array: boolean };
  }>;
}

const ROUTES: readonly FuzzRoute[] = [...(appRoutes as unknown as FuzzRoute[]), ...(pluginRoutes as unknown as FuzzRoute[])];
/** Routes that would end the shared signed-in session: fuzzed, but never with it. */
const ENDS_SESSION = new Set(['accounts.logout', 'links.reset']);

let a: ReferenceApp;
let client: ReturnType<typeof httpClient>;
let bearer: string;
let session: { cookie: string; token: string };
const webhookAuth = `Basic ${Buffer.from(`${referenceAppEnv.MAILPROVIDER_WEBHOOK_USER}:${referenceAppEnv.MAILPROVIDER_WEBHOOK_PASSWORD}`).toString('base64')}`;

beforeAll(async () => {
  a = await bootReferenceApp('fuzz');
  client = httpClient(a.url);
  const user = await makeAccount(a, { email: 'fuzz@example.test', verified: true });
  bearer = await bearerFor(a.t, user.id);
  const browser = await signIn(a, user);
  await browser.page('/dashboard');
  session = { cookie: [...browser.cookies].map(([n, v]) => `${n}=${v}`).join('; '), token: browser.token! };
});
afterAll(async () => {
  client?.close();
  await a?.close();
});

// ── arbitraries ──

/** Text an attacker would try: NUL and control characters, encodings, huge numbers, dates out of range, markup. */
const hostile = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '%00',
  '%ZZ',
  '%',
  '..',
  '../../etc/passwd',
  '\uFFFF',
  '\uD800',
  '💥',
  '\u202E',
  ' ',
  '',
  '9'.repeat(400),
  '-1',
  '0',
  '1e309',
  'NaN',
  'Infinity',
  '2024-13-45T25:61:61Z',
  '0000-00-00',
  'PT99999999H',
  'true',
  'null',
  '[]',
  '{}',
  '<script>alert(1)</script>',
  "' or 1=1 --",
  '${7*7}',
  '__proto__',
  'constructor',
  'x'.repeat(5000),
);
const text = fc.oneof(
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 3, arbitrary: hostile },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 10 }), hostile, fc.string({ maxLength: 10 })).map(([x, h, y]) => x + h + y) },
);
const jsonValue = fc.oneof(
  { weight: 3, arbitrary: text },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
);

/** A value of the field's own type most of the time (so rules and handlers run), anything otherwise. */
function valueFor(type: { kind: string; array: boolean }): fc.Arbitrary<unknown> {
  const scalar: fc.Arbitrary<unknown> =
    type.kind === 'integer'
      ? fc.integer({ min: -5, max: 1000 })
      : type.kind === 'number'
        ? fc.double({ noNaN: true, noDefaultInfinity: true })
        : type.kind === 'boolean'
          ? fc.boolean()
          : type.kind === 'timestamp'
            ? fc.date({ noInvalidDate: true, min: new Date('1900-01-01'), max: new Date('2200-01-01') }).map((d) => d.toISOString())
            : type.kind === 'json'
              ? fc.jsonValue({ maxDepth: 3 })
              : text;
  const typed = type.array ? fc.array(scalar, { maxLength: 4 }) : scalar;
  return fc.oneof({ weight: 6, arbitrary: typed }, { weight: 1, arbitrary: jsonValue });
}

/** A value for the `i`th `{param}` of the path: of its field's type most of the time. */
function pathValue(route: FuzzRoute, i: number): fc.Arbitrary<string> {
  const name = /\{([^}]+)\}/g;
  const params = [...route.path.matchAll(name)].map((m) => m[1]);
  const field = route.fields.find((f) => f.source === 'path' && (f.name ?? f.key) === params[i]);
  const typed = field?.type.kind === 'integer' ? fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer()).map(String) : text;
  return fc.oneof({ weight: 3, arbitrary: typed }, { weight: 1, arbitrary: text });
}

function fieldNames(route: FuzzRoute, source: string, tag: 'json' | 'form' | 'name'): string[] {
  return route.fields
    .filter((f) => f.source === source)
    .map((f) => f[tag] ?? f.key)
    .filter((n): n is string => n !== undefined);
}

/** A name from the route's own fields, or any other (including `_method`, `_token`, `__proto__`). */
const nameFrom = (names: string[]) =>
  names.length === 0
    ? fc.oneof(fc.string({ maxLength: 10 }), hostile)
    : fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...names) },
        { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('_method', '_token', '__proto__', 'constructor')) },
      );

function pathOf(route: FuzzRoute, values: string[], raw: boolean): string {
  let i = 0;
  return route.path.replace(/\{[^}]+\}/g, () => {
    const v = values[i++] ?? '';
    // Raw: keep % sequences as typed (they may be malformed); everything a request line cannot carry is encoded.
    return raw ? pct(v).replace(/%25/g, '%') : pct(v);
  });
}

/** Percent-encode every byte of the UTF-8 of `v` but unreserved ones (lone surrogates become U+FFFD). */
function pct(v: string): string {
  let out = '';
  for (const b of Buffer.from(v, 'utf8'))
    out +=
      (b >= 0x30 && b <= 0x39) ||
      (b >= 0x41 && b <= 0x5a) ||
      (b >= 0x61 && b <= 0x7a) ||
      b === 0x2d ||
      b === 0x2e ||
      b === 0x5f ||
      b === 0x7e
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

function encodeForm(pairs: Array<[string, string]>): string {
  return pairs.map(([k, v]) => `${pct(k)}=${pct(v)}`).join('&');
}

function multipart(pairs: Array<[string, string]>, withFile: boolean): { type: string; body: string } {
  const boundary = 'fuzzboundary';
  let body = '';
  for (const [k, v] of pairs)
    body += `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, '')}"\r\n\r\n${v}\r\n`;
  if (withFile)
    body += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a\u0000.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n`;
  body += `--${boundary}--\r\n`;
  return { type: `multipart/form-data; boundary=${boundary}`, body };
}

type Credentials = 'none' | 'bearer' | 'session' | 'webhook' | 'garbage';

/** The credentials the route expects (sent most of the time, so requests get past authentication to the binder and handler). */
function fitting(route: FuzzRoute): Credentials {
  if (route.middleware.includes('token')) return 'bearer';
  if (route.middleware.includes('session')) return 'session';
  if (route.path.startsWith('/mailprovider/')) return 'webhook';
  return 'none';
}

const requestFor = (route: FuzzRoute): fc.Arbitrary<{ req: RawRequest; credentials: Credentials }> => {
  const params = (route.path.match(/\{[^}]+\}/g) ?? []).length;
  const jsonNames = fieldNames(route, 'body', 'json');
  const formNames = fieldNames(route, 'body', 'form');
  const queryNames = fieldNames(route, 'query', 'name');
  return fc
    .record({
      method: fc.oneof(
        { weight: 9, arbitrary: fc.constant(route.method) },
        { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') },
      ),
      pathValues: fc.tuple(...Array.from({ length: params }, (_, i) => pathValue(route, i))),
      rawPath: fc.boolean(),
      query: fc.array(fc.tuple(nameFrom(queryNames), text), { maxLength: 4 }),
      rawQuery: fc.oneof(
        { weight: 5, arbitrary: fc.constant('') },
        { weight: 1, arbitrary: fc.constantFrom('&%ZZ', '&a[]=', '&_method=DELETE', '&&&', '&a=%00', '&cursor=%E0%A4%A') },
      ),
      bodyKind: fc.constantFrom('none', 'json', 'json', 'json', 'json', 'json-any', 'form', 'multipart', 'garbage'),
      // Most of the route's own fields (so requests get past "required" rules), plus a few others.
      ownJson: fc.tuple(
        ...route.fields.filter((f) => f.source === 'body' && f.json !== undefined).map((f) => fc.option(valueFor(f.type), { freq: 5 })),
      ),
      jsonBody: fc.dictionary(nameFrom(jsonNames), jsonValue, { maxKeys: 3 }),
      anyJson: fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom('{"a":', '[', '{"__proto__":{"x":1}}', '"\\u0000"', '1e999')),
      formPairs: fc.array(fc.tuple(nameFrom(formNames), text), { maxLength: 6 }),
      withFile: fc.boolean(),
      garbage: fc.tuple(
        fc.constantFrom(
          'text/plain',
          'application/xml',
          'application/json; charset=utf-16',
          'multipart/form-data',
          'application/x-www-form-urlencoded; charset=koi8-r',
          '',
          'a/b/c',
        ),
        fc.string({ maxLength: 40 }),
      ),
      accept: fc.constantFrom('application/json', 'text/html', '*/*', undefined),
      credentials: fc.oneof(
        { weight: 6, arbitrary: fc.constant(fitting(route)) },
        { weight: 1, arbitrary: fc.constantFrom<Credentials>('none', 'bearer', 'session', 'webhook', 'garbage') },
      ),
    })
    .map((g) => {
      const headers: Record<string, string> = {};
      if (g.accept !== undefined) headers.accept = g.accept;
      let body: string | undefined;
      switch (g.bodyKind) {
        case 'json': {
          const own: Record<string, unknown> = {};
          jsonNames.forEach((name, i) => {
            if (g.ownJson[i] !== null) own[name] = g.ownJson[i];
          });
          headers['content-type'] = 'application/json';
          body = JSON.stringify({ ...own, ...g.jsonBody });
          break;
        }
        case 'json-any':
          headers['content-type'] = 'application/json';
          body = typeof g.anyJson === 'string' && /^[[{"1]/.test(g.anyJson) ? g.anyJson : JSON.stringify(g.anyJson);
          break;
        case 'form':
          headers['content-type'] = 'application/x-www-form-urlencoded';
          body = encodeForm(g.formPairs);
          break;
        case 'multipart': {
          const m = multipart(g.formPairs, g.withFile);
          headers['content-type'] = m.type;
          body = m.body;
          break;
        }
        case 'garbage':
          if (g.garbage[0] !== '') headers['content-type'] = g.garbage[0];
          body = g.garbage[1];
          break;
      }
      const credentials: Credentials = g.credentials === 'session' && ENDS_SESSION.has(route.name) ? 'none' : g.credentials;
      if (credentials === 'bearer') headers.authorization = `Bearer ${bearer}`;
      if (credentials === 'webhook') headers.authorization = webhookAuth;
      if (credentials === 'garbage') {
        headers.authorization = 'Bearer 1|nope';
        headers.cookie = 'app_session=%00; app_remember=x';
      }
      if (credentials === 'session') {
        headers.cookie = session.cookie;
        headers['x-csrf-token'] = session.token;
      }
      const qs = encodeForm(g.query) + g.rawQuery;
      const path = pathOf(route, g.pathValues as string[], g.rawPath) + (qs === '' ? '' : `?${qs}`);
      return {
        req: { method: g.method, path, headers, ...(body !== undefined && g.method !== 'GET' && g.method !== 'HEAD' ? { body } : {}) },
        credentials,
      };
    });
};

const anyRequest = fc.constantFrom(...ROUTES).chain((route) => requestFor(route).map((r) => ({ route: route.name, ...r })));

describe('Fuzzing | every generated route, generated requests', () => {
  it('answers every request below 500, without a reset, with a request ID', async () => {
    const runs = size(1000, 10_000);
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(anyRequest, async ({ req }) => {
        const res: RawReply = await client.send(req);
        if (res.status === -1) return; // the client itself refused to send it
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect(res.status, `${req.method} ${req.path}: ${res.error ?? res.body.slice(0, 300)}`).toBeGreaterThan(0);
        expect(res.status, `${req.method} ${req.path}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
        expect(res.headers['x-request-id']).toBeTruthy();
      }),
      { numRuns: runs, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31), endOnFailure: !process.env.FUZZ_SHRINK },
    );
    const total = [...statuses.values()].reduce((x, y) => x + y, 0);
    console.log(
      `fuzz: ${total} requests over ${ROUTES.length} routes; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((x, y) => x[0] - y[0])))}`,
    );
    expect(total).toBeGreaterThan(runs * 0.95);
  }, 600_000);
});
