/**
 * Encrypted cookie sessions over real HTTP (docs/spec.md 2.3, 3 "Session" rows,
 * 5.3, 8): crypto, expiry with a controllable clock, when
 * the cookie is written, headers, the size limit, cookie attributes per
 * environment, regenerate/invalidate, flash.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { generateAppKey, decodeAppKey } from '../../../runtime/config/app-key.js';
import { Encrypter } from '../../../runtime/crypto/encrypter.js';
import { KeyRing, keyIdOf } from '../../../runtime/crypto/key-ring.js';
import { parseRecord } from '../../../runtime/session/session-record.js';
import { closeAll, waitFor } from '../http/support/server.js';
import { Jar, setCookies } from './support/jar.js';
import { Clock, startSessionServer, type SessionServer } from './support/session-server.js';

const started: SessionServer[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) await s.manager.close();
  await closeAll();
});

async function server(options: Parameters<typeof startSessionServer>[0] = {}): Promise<SessionServer> {
  const s = await startSessionServer(options);
  started.push(s);
  return s;
}

const NAME = 'app_session';
const HOUR = 3_600_000;

/** Decrypt a session cookie value with the server's keys. */
function decrypt(s: SessionServer, value: string, name = NAME) {
  const opened = new Encrypter(KeyRing.fromSettings(s.settings)).open('session', value, { context: name });
  return opened === null ? null : { record: parseRecord(opened.plaintext.toString('utf8'))!, keyId: opened.keyId };
}

async function getJson(jar: Jar, url: string, init: RequestInit = {}): Promise<any> {
  const res = await jar.fetch(url, init);
  return res.json();
}

function flipByte(value: string, at: number): string {
  const body = Buffer.from(value, 'base64url');
  body[at] = body[at]! ^ 0x20;
  return body.toString('base64url');
}

describe('Session cookie | encryption', () => {
  it('round-trips values; the cookie holds the ID, CSRF token, times, values and the key ID, encrypted', async () => {
    const clock = new Clock();
    const s = await server({ clock });
    const jar = new Jar();
    await jar.fetch(`${s.url}/s/put?key=colour&value=teal`);
    const value = jar.get(NAME)!;
    expect(value).not.toContain('teal');
    const { record, keyId } = decrypt(s, value)!;
    expect(keyId).toBe(keyIdOf(s.settings.APP_KEY as Buffer));
    expect(record).toMatchObject({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      csrf: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      values: { colour: 'teal' },
    });
    expect(record.startedAt).toBe(clock.t);
    expect(record.lastUsedAt).toBe(clock.t);
    expect(await getJson(jar, `${s.url}/s/get?key=colour`)).toEqual({ value: 'teal', exists: true });
  });

  for (const [what, spoil] of [
    ['a tampered byte', (v: string) => flipByte(v, 40)],
    ['a tampered key ID', (v: string) => flipByte(v, 2)],
    ['a truncated value', (v: string) => v.slice(0, v.length - 10)],
    ['garbage', () => 'not-a-session'],
  ] as const) {
    it(`${what} gives an empty session and removes the cookie (Max-Age=0)`, async () => {
      const s = await server();
      const jar = new Jar();
      await jar.fetch(`${s.url}/s/put?key=a&value=1`);
      const res = await fetch(`${s.url}/s/get?key=a`, { headers: { cookie: `${NAME}=${spoil(jar.get(NAME)!)}` } });
      expect(await res.json()).toEqual({ value: null, exists: false });
      const [removal] = setCookies(res);
      expect(removal).toMatchObject({ name: NAME, value: '', attributes: { 'max-age': '0', path: '/' } });
      expect(res.headers.get('cache-control')).toBe('private');
    });
  }

  it('a value made for another cookie name does not open (the name is authenticated)', async () => {
    const key = generateAppKey();
    const a = await server({ env: { APP_KEY: key } });
    const b = await server({ env: { APP_KEY: key, SESSION_COOKIE: 'other_session' } });
    const jar = new Jar();
    await jar.fetch(`${a.url}/s/put?key=a&value=1`);
    const res = await fetch(`${b.url}/s/get?key=a`, { headers: { cookie: `other_session=${jar.get(NAME)!}` } });
    expect(await res.json()).toEqual({ value: null, exists: false });
    expect(setCookies(res)[0]).toMatchObject({ name: 'other_session', attributes: { 'max-age': '0' } });
    // The same value under its own name still opens, with the same key.
    expect(await (await fetch(`${a.url}/s/get?key=a`, { headers: { cookie: `${NAME}=${jar.get(NAME)!}` } })).json()).toEqual({
      value: '1',
      exists: true,
    });
  });

  it('a cookie made with another APP_KEY gives an empty session', async () => {
    const a = await server();
    const b = await server();
    const jar = new Jar();
    await jar.fetch(`${a.url}/s/put?key=a&value=1`);
    const res = await fetch(`${b.url}/s/get?key=a`, { headers: { cookie: `${NAME}=${jar.get(NAME)!}` } });
    expect(await res.json()).toEqual({ value: null, exists: false });
    expect(setCookies(res)[0]?.attributes['max-age']).toBe('0');
  });

  it('rotation: a key moved to APP_PREVIOUS_KEYS still opens; the next write re-encrypts with APP_KEY', async () => {
    const oldKey = generateAppKey();
    const newKey = generateAppKey();
    const before = await server({ env: { APP_KEY: oldKey } });
    const jar = new Jar();
    await jar.fetch(`${before.url}/s/put?key=a&value=kept`);
    const oldCookie = jar.get(NAME)!;
    const after = await server({ env: { APP_KEY: newKey, APP_PREVIOUS_KEYS: `${generateAppKey()},${oldKey}` } });
    const read = await jar.fetch(`${after.url}/s/get?key=a`);
    expect(await read.json()).toEqual({ value: 'kept', exists: true });
    expect(setCookies(read)).toEqual([]); // reading alone does not rewrite
    await jar.fetch(`${after.url}/s/put?key=b&value=2`);
    const rewritten = jar.get(NAME)!;
    expect(rewritten).not.toBe(oldCookie);
    const bytes = (key: string) => (decodeAppKey(key) as { key: Buffer }).key;
    const only = (key: string) => new Encrypter(new KeyRing(bytes(key)));
    expect(only(newKey).open('session', rewritten, { context: NAME })?.keyId).toBe(keyIdOf(bytes(newKey)));
    expect(only(oldKey).open('session', rewritten, { context: NAME })).toBeNull();
    expect(only(oldKey).open('session', oldCookie, { context: NAME })).not.toBeNull();
    expect(await getJson(jar, `${after.url}/s/get?key=a`)).toEqual({ value: 'kept', exists: true });
  });

  it('uses a fresh salt per write: writing the same data twice gives different cookies', async () => {
    const s = await server();
    const jar = new Jar();
    await jar.fetch(`${s.url}/s/put?key=a&value=1`);
    const first = jar.get(NAME)!;
    await jar.fetch(`${s.url}/s/put?key=a&value=1`);
    const second = jar.get(NAME)!;
    expect(second).not.toBe(first);
    expect(decrypt(s, first)!.record.values).toEqual(decrypt(s, second)!.record.values);
  });
});

describe('Session cookie | expiry against the times inside it', () => {
  it('idle: a cookie unused for longer than SESSION_LIFETIME starts an empty session and is removed', async () => {
    const clock = new Clock();
    const s = await server({ clock, env: { SESSION_LIFETIME: '2h' } });
    const jar = new Jar();
    await jar.fetch(`${s.url}/s/put?key=a&value=1`);
    const cookie = jar.get(NAME)!;
    clock.advance(2 * HOUR);
    expect(await (await fetch(`${s.url}/s/get?key=a`, { headers: { cookie: `${NAME}=${cookie}` } })).json()).toEqual({
      value: '1',
      exists: true,
    });
    clock.advance(1);
    const res = await fetch(`${s.url}/s/get?key=a`, { headers: { cookie: `${NAME}=${cookie}` } });
    expect(await res.json()).toEqual({ value: null, exists: false });
    expect(setCookies(res)[0]?.attributes['max-age']).toBe('0');
  });

  it('activity keeps it alive (rewritten at most every tenth of the lifetime), up to SESSION_MAX_LIFETIME', async () => {
    const clock = new Clock();
    const s = await server({ clock, env: { SESSION_LIFETIME: '2h', SESSION_MAX_LIFETIME: '5h' } });
    const jar = new Jar();
    await jar.fetch(`${s.url}/s/put?key=a&value=1`);
    for (let hour = 1; hour <= 5; hour++) {
      clock.advance(HOUR);
      const res = await jar.fetch(`${s.url}/s/get?key=a`);
      expect(await res.json(), `after ${hour} h`).toEqual({ value: '1', exists: true });
      expect(setCookies(res), `rewritten after ${hour} h`).toHaveLength(1);
    }
    clock.advance(1);
    const res = await jar.fetch(`${s.url}/s/get?key=a`);
    expect(await res.json()).toEqual({ value: null, exists: false });
    expect(jar.get(NAME)).toBeUndefined();
  });

  it('SESSION_MAX_LIFETIME=0 sets no absolute limit', async () => {
    const clock = new Clock();
    const s = await server({ clock, env: { SESSION_LIFETIME: '2h', SESSION_MAX_LIFETIME: '0' } });
    const jar = new Jar();
    await jar.fetch(`${s.url}/s/put?key=a&value=1`);
    for (let i = 0; i < 30; i++) {
      clock.advance(HOUR);
      await jar.fetch(`${s.url}/s/none`);
    }
    expect(await getJson(jar, `${s.url}/s/get?key=a`)).toEqual({ value: '1', exists: true });
  });

  it('regenerate restarts the absolute lifetime', async () => {
    const clock = new Clock();
    const s = await server({ clock, env: { SESSION_LIFETIME: '2h', SESSION_MAX_LIFETIME: '3h' } });
    const jar = new Jar();
    await jar.fetch(`${s.url}/s/put?key=a&value=1`);
    clock.advance(HOUR);
    await jar.fetch(`${s.url}/s/none`);
    clock.advance(HOUR);
    await jar.fetch(`${s.url}/s/regenerate`);
    clock.advance(HOUR);
    await jar.fetch(`${s.url}/s/none`);
    clock.advance(HOUR + 1); // 4 h after the start, 2 h after regenerate
    expect(await getJson(jar, `${s.url}/s/get?key=a`)).toEqual({ value: '1', exists: true });
  });
});

describe('Session cookie | when it is written, and the headers', () => {
  it('no cookie, no Cache-Control and no Vary until something is stored', async () => {
    const s = await server();
    for (const path of ['/s/none', '/s/get?key=a', '/s/whoami', '/s/flashed?key=x', '/s/invalidate']) {
      const res = await fetch(`${s.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('set-cookie'), path).toBeNull();
      expect(res.headers.get('cache-control'), path).toBeNull();
      expect(res.headers.get('vary'), path).toBeNull();
    }
  });

  it('storing writes the cookie with Cache-Control: private and Vary: Cookie', async () => {
    const s = await server();
    const res = await fetch(`${s.url}/s/put?key=a&value=1`);
    expect(setCookies(res)).toHaveLength(1);
    expect(res.headers.get('cache-control')).toBe('private');
    expect(res.headers.get('vary')).toBe('Cookie');
  });

  it('a request carrying the cookie is private and varies by Cookie even when the handler does not touch the session', async () => {
    const s = await server();
    const jar = new Jar();
    await jar.fetch(`${s.url}/s/put?key=a&value=1`);
    const res = await jar.fetch(`${s.url}/s/none`);
    expect(res.headers.get('cache-control')).toBe('private');
    expect(res.headers.get('vary')).toBe('Cookie');
    expect(setCookies(res)).toEqual([]);
  });

  it('keeps a Cache-Control the handler set', async () => {
    const s = await server();
    const res = await fetch(`${s.url}/s/nostore?key=a&value=1`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(setCookies(res)).toHaveLength(1);
  });

  it('an unchanged session is rewritten at most every tenth of SESSION_LIFETIME', async () => {
    const clock = new Clock();
    const s = await server({ clock, env: { SESSION_LIFETIME: '100m' } });
    const jar = new Jar();
    await jar.fetch(`${s.url}/s/put?key=a&value=1`);
    clock.advance(5 * 60_000);
    expect(setCookies(await jar.fetch(`${s.url}/s/get?key=a`))).toEqual([]);
    clock.advance(4 * 60_000 + 59_999); // 9:59.999 after the write
    expect(setCookies(await jar.fetch(`${s.url}/s/get?key=a`))).toEqual([]);
    clock.advance(1); // 10 min = a tenth of 100 min
    const refreshed = await jar.fetch(`${s.url}/s/get?key=a`);
    expect(setCookies(refreshed)).toHaveLength(1);
    expect(decrypt(s, jar.get(NAME)!)!.record.lastUsedAt).toBe(clock.t);
    clock.advance(60_000);
    expect(setCookies(await jar.fetch(`${s.url}/s/get?key=a`))).toEqual([]);
    // A change is written at once.
    expect(setCookies(await jar.fetch(`${s.url}/s/put?key=a&value=2`))).toHaveLength(1);
  });

  it('changes made after the response has started are lost and logged', async () => {
    const s = await server();
    const jar = new Jar();
    await jar.fetch(`${s.url}/s/put?key=a&value=1`);
    const res = await jar.fetch(`${s.url}/s/late`);
    expect(res.status).toBe(200);
    await waitFor(() => s.logs.find((l) => l.code === 'BINDERY_SESSION_CHANGED_AFTER_RESPONSE'), 3000, 'the lost-change log line');
    expect(await getJson(jar, `${s.url}/s/get?key=late`)).toEqual({ value: null, exists: true });
  });
});

describe('Session cookie | size limit (about 4 KB)', () => {
  it('drops the old input of a failed form first (errors stay), logging it', async () => {
    const s = await server();
    const jar = new Jar();
    const { token } = await getJson(jar, `${s.url}/s/token`);
    const res = await jar.fetch(`${s.url}/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', referer: `${s.url}/s/page` },
      body: new URLSearchParams({ _token: token, title: 'far too long a title', note: 'n'.repeat(5000) }).toString(),
    });
    expect(res.status).toBe(303);
    expect(jar.get(NAME)!.length).toBeLessThanOrEqual(4096);
    expect(await getJson(jar, `${s.url}/s/state`)).toEqual({
      errors: { title: 'The title field must not be greater than 10 characters.' },
      old: {},
    });
    expect(s.logs.some((l) => l.code === 'BINDERY_SESSION_TOO_LARGE' && /old input/.test(String(l.msg)))).toBe(true);
  });

  it('keeps the old input when it fits', async () => {
    const s = await server();
    const jar = new Jar();
    const { token } = await getJson(jar, `${s.url}/s/token`);
    await jar.fetch(`${s.url}/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: new URLSearchParams({ _token: token, title: 'far too long a title', note: 'n'.repeat(1000) }).toString(),
    });
    expect((await getJson(jar, `${s.url}/s/state`)).old).toEqual({ title: 'far too long a title', note: 'n'.repeat(1000) });
  });

  it('then skips the save, logging it, and keeps the previous cookie', async () => {
    const s = await server();
    const jar = new Jar();
    await jar.fetch(`${s.url}/s/put?key=small&value=1`);
    const before = jar.get(NAME);
    const res = await jar.fetch(`${s.url}/s/put?key=big&value=${'x'.repeat(5000)}`);
    expect(res.status).toBe(200);
    expect(setCookies(res)).toEqual([]);
    expect(jar.get(NAME)).toBe(before);
    expect(s.logs.some((l) => l.code === 'BINDERY_SESSION_TOO_LARGE' && /not saved/.test(String(l.msg)))).toBe(true);
    expect(await getJson(jar, `${s.url}/s/get?key=small`)).toEqual({ value: '1', exists: true });
  });
});

describe('Session cookie | attributes per environment', () => {
  it('testing: app_session; HttpOnly, SameSite=Lax, Path=/, Max-Age = SESSION_LIFETIME; not Secure; no Domain', async () => {
    const s = await server({ env: { APP_ENV: 'testing', SESSION_LIFETIME: '90m' } });
    const [c] = setCookies(await fetch(`${s.url}/s/put?key=a&value=1`));
    expect(c!.name).toBe('app_session');
    expect(c!.attributes).toEqual({ 'max-age': '5400', path: '/', httponly: '', samesite: 'Lax' });
  });

  it('development: the same, not Secure', async () => {
    const s = await server({ env: { APP_ENV: 'development' } });
    const [c] = setCookies(await fetch(`${s.url}/s/put?key=a&value=1`));
    expect(c!.name).toBe('app_session');
    expect(c!.attributes).toEqual({ 'max-age': '7200', path: '/', httponly: '', samesite: 'Lax' });
  });

  it('production: __Host-app_session, Secure, Path=/, no Domain', async () => {
    const s = await server({ env: { APP_ENV: 'production' } });
    const [c] = setCookies(await fetch(`${s.url}/s/put?key=a&value=1`));
    expect(c!.name).toBe('__Host-app_session');
    expect(c!.attributes).toEqual({ 'max-age': '7200', path: '/', httponly: '', secure: '', samesite: 'Lax' });
    // And it reads back under that name.
    const res = await fetch(`${s.url}/s/get?key=a`, { headers: { cookie: `__Host-app_session=${c!.value}` } });
    expect(await res.json()).toEqual({ value: '1', exists: true });
  });

  it('production with SESSION_DOMAIN: the unprefixed name with Domain', async () => {
    const s = await server({ env: { APP_ENV: 'production', SESSION_DOMAIN: 'Example.COM' } });
    const [c] = setCookies(await fetch(`${s.url}/s/put?key=a&value=1`));
    expect(c!.name).toBe('app_session');
    expect(c!.attributes).toEqual({ 'max-age': '7200', domain: 'example.com', path: '/', httponly: '', secure: '', samesite: 'Lax' });
  });

  it('SESSION_SECURE and SESSION_SAME_SITE override the defaults; SESSION_COOKIE renames', async () => {
    const s = await server({
      env: { APP_ENV: 'development', SESSION_SECURE: 'true', SESSION_SAME_SITE: 'none', SESSION_COOKIE: 'notes_sid' },
    });
    const [c] = setCookies(await fetch(`${s.url}/s/put?key=a&value=1`));
    expect(c!.name).toBe('__Host-notes_sid');
    expect(c!.attributes).toMatchObject({ secure: '', samesite: 'None' });
  });
});

describe('Session | regenerate, invalidate, user slot, flash', () => {
  it('regenerate gives a new ID and CSRF token and keeps the values', async () => {
    const s = await server();
    const jar = new Jar();
    await jar.fetch(`${s.url}/s/put?key=a&value=1`);
    const before = decrypt(s, jar.get(NAME)!)!.record;
    await jar.fetch(`${s.url}/s/regenerate`);
    const after = decrypt(s, jar.get(NAME)!)!.record;
    expect(after.id).not.toBe(before.id);
    expect(after.csrf).not.toBe(before.csrf);
    expect(after.values).toEqual({ a: '1' });
  });

  it('invalidate empties the session and removes the cookie; with cookie sessions a copy made before still works', async () => {
    const s = await server();
    const jar = new Jar();
    await jar.fetch(`${s.url}/s/login?user=7`);
    expect(await getJson(jar, `${s.url}/s/whoami`)).toMatchObject({ user: { id: '7', fingerprint: 'fp-7' } });
    const copy = jar.get(NAME)!;
    const res = await jar.fetch(`${s.url}/s/invalidate`);
    expect(setCookies(res)[0]?.attributes['max-age']).toBe('0');
    expect(await getJson(jar, `${s.url}/s/whoami`)).toEqual({ user: null, id: null });
    // docs/spec.md 5.1 rule 7: the cookie driver cannot revoke a copy.
    const copied = await fetch(`${s.url}/s/whoami`, { headers: { cookie: `${NAME}=${copy}` } });
    expect(((await copied.json()) as any).user).toEqual({ id: '7', fingerprint: 'fp-7' });
    // Nor end a user's other sessions: services.sessions.revokeUser says so with undefined.
    expect(await (await fetch(`${s.url}/s/revoke-others`, { headers: { cookie: `${NAME}=${copy}` } })).json()).toEqual({ ended: null });
  });

  it('flash data is readable by the next request only', async () => {
    const s = await server();
    const jar = new Jar();
    await jar.fetch(`${s.url}/s/flash?key=status&value=Saved`);
    expect(await getJson(jar, `${s.url}/s/flashed?key=status`)).toEqual({ value: 'Saved' });
    expect(await getJson(jar, `${s.url}/s/flashed?key=status`)).toEqual({ value: null });
  });
});

describe('Session | misuse is reported', () => {
  it('ctx.session on a route without the session middleware is a 500 naming the fix', async () => {
    const s = await server();
    const res = await fetch(`${s.url}/plain/session`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(500);
    const line = s.logs.find((l) => l.code === 'BINDERY_SESSION_NOT_STARTED');
    expect(String((line?.err as { message?: string })?.message)).toMatch(/middleware: \[session, csrf\]/);
  });
});
