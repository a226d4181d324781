/**
 * The database session driver on MariaDB (docs/sessions.md "Drivers"): the
 * `session` migration set's MySQL files applied by the app's migrator at
 * boot, then sessions over real HTTP (a value kept in a row, regenerate and
 * invalidate revoking the old ID) and the store itself (read, write,
 * destroy, a user's sessions; 4-byte UTF-8 and values over 64 KB kept
 * exactly; IDs compared byte for byte).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { createTestApp, defineApp, type TestApp } from '../../../runtime/app/index.js';
import { decodeAppKey, generateAppKey } from '../../../runtime/config/app-key.js';
import { Encrypter } from '../../../runtime/crypto/encrypter.js';
import { KeyRing } from '../../../runtime/crypto/key-ring.js';
import { session } from '../../../runtime/session/index.js';
import { databaseDriver } from '../../../runtime/session/drivers/database-driver.js';
import { newSessionRecord, type SessionRecord } from '../../../runtime/session/session-record.js';
import type { SessionStore } from '../../../runtime/session/session-store.js';
import { createTestMariaDatabase, type TestDatabase } from '../../support/database.js';
import { Jar } from './support/jar.js';
import { Clock, sessionHandlers, sessionRoutes, VIEWS_DIR } from './support/session-server.js';

const clock = new Clock();
const app = defineApp({
  name: 'sessionmaria',
  root: fileURLToPath(new URL('.', import.meta.url)),
  routes: sessionRoutes(),
  handlers: sessionHandlers(),
  viewsDir: VIEWS_DIR,
  migrations: [],
  setup: [session({ now: clock.now })],
});

const KEY = generateAppKey();
let database: TestDatabase;
let t: TestApp;
let store: SessionStore;

const silent = { debug() {}, warn() {}, info() {}, error() {} } as unknown as FastifyBaseLogger;

beforeAll(async () => {
  database = await createTestMariaDatabase('sessionmaria');
  t = await createTestApp(app, { databaseUrl: database.url, env: { SESSION_DRIVER: 'database', APP_KEY: KEY } });
  store = await databaseDriver({
    encrypter: new Encrypter(new KeyRing((decodeAppKey(KEY) as { key: Buffer }).key)),
    cookieName: 'direct',
    maxCookieBytes: 4096,
    lifetimeMs: 7_200_000,
    maxLifetimeMs: 0,
    now: clock.now,
    database: t.running.database,
    log: silent,
  });
});
afterAll(async () => {
  store?.close?.();
  await t?.close();
  await database?.drop();
});

const rows = () => t.db.selectFrom('bindery_sessions').select(['id', 'user_id', 'data']).execute();

function record(values: Record<string, unknown>, userId: string | null = null): SessionRecord {
  return { ...newSessionRecord(clock.now()), values, userId };
}

describe('Database sessions on MariaDB | over HTTP', () => {
  it('applies the session migration set from its mysql/ folder', async () => {
    const applied = await t.db.selectFrom('bindery_migrations').select(['source', 'name']).where('source', '=', 'session').execute();
    expect(applied).toEqual([
      { source: 'session', name: '0001_create_bindery_sessions.sql' },
      { source: 'session', name: '0002_session_client.sql' },
    ]);
  });

  it('keeps a value in a row; regenerate replaces the row, invalidate deletes it', async () => {
    const jar = new Jar();
    await jar.fetch(`${t.url}/s/put?key=colour&value=${encodeURIComponent('teal 🐢')}`);
    expect(await (await jar.fetch(`${t.url}/s/get?key=colour`)).json()).toEqual({ value: 'teal 🐢', exists: true });
    const [before] = (await rows()).filter((r) => (r.data as { v: Record<string, unknown> }).v.colour === 'teal 🐢');
    expect(before).toBeDefined();

    const copy = new Jar();
    copy.cookies.set('app_session', jar.get('app_session')!);
    const { id } = (await (await jar.fetch(`${t.url}/s/login?user=42`)).json()) as { id: string };
    expect(id).not.toBe(before!.id);
    const ids = (await rows()).map((r) => r.id);
    expect(ids).toContain(id);
    expect(ids).not.toContain(before!.id);
    expect((await rows()).find((r) => r.id === id)!.user_id).toBe('42');
    expect(await (await copy.fetch(`${t.url}/s/get?key=colour`)).json()).toEqual({ value: null, exists: false });

    await jar.fetch(`${t.url}/s/invalidate`);
    expect((await rows()).map((r) => r.id)).not.toContain(id);
  });
});

describe('Database sessions on MariaDB | the store', () => {
  it('writes, reads back exactly (4-byte UTF-8, over 64 KB) and destroys a session', async () => {
    const long = `${'ß😀'.repeat(25_000)}!`;
    const r = record({ long, emoji: '👩🏽‍💻', n: 1, nested: { ok: true } });
    const cookie = (await store.write(r, null, { ip: '203.0.113.9', userAgent: 'Agent 🦊' })) as string;
    const back = (await store.read(cookie))!;
    expect(back.id).toBe(r.id);
    expect(back.values).toEqual(r.values);
    expect((back.values.long as string).length).toBe(long.length);

    await store.revoke(r.id);
    expect(await store.read(cookie)).toBeNull();
  });

  it('a save that replaces an ID deletes the old row; IDs differing in case are distinct rows', async () => {
    const first = record({ a: 1 });
    const second = { ...record({ a: 2 }), id: first.id.toUpperCase() === first.id ? `${first.id}x` : first.id.toUpperCase() };
    await store.write(first, null, undefined);
    await store.write(second, null, undefined);
    const ids = (await rows()).map((r) => r.id);
    expect(ids).toContain(first.id);
    expect(ids).toContain(second.id);

    const third = record({ a: 3 });
    await store.write(third, first.id, undefined);
    const after = (await rows()).map((r) => r.id);
    expect(after).toContain(third.id);
    expect(after).not.toContain(first.id);
    expect(after).toContain(second.id);
  });

  it("lists a user's sessions newest first with their client, ends one or all but one", async () => {
    const a = record({ k: 'a' }, 'ada');
    await store.write(a, null, { ip: '198.51.100.1', userAgent: 'First' });
    clock.advance(1000);
    const b = { ...record({ k: 'b' }, 'ada') };
    await store.write(b, null, { ip: '198.51.100.2', userAgent: 'Second 🌍' });
    const listed = await store.listUser!('ada');
    expect(listed.map((s) => [s.id, s.ip, s.userAgent, s.lastUsedAt])).toEqual([
      [b.id, '198.51.100.2', 'Second 🌍', b.lastUsedAt],
      [a.id, '198.51.100.1', 'First', a.lastUsedAt],
    ]);
    expect(await store.revokeUserSession!('ada', a.id)).toBe(true);
    expect(await store.revokeUserSession!('ada', a.id)).toBe(false);
    const c = record({ k: 'c' }, 'ada');
    await store.write(c, null, undefined);
    expect(await store.revokeUser!('ada', c.id)).toBe(1);
    expect((await store.listUser!('ada')).map((s) => s.id)).toEqual([c.id]);
  });
});
