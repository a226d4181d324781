/**
 * The driver interface admits other drivers (docs/sessions.md "Drivers"): an in-memory server-side store selected by
 * SESSION_DRIVER, and what happens when a store fails.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SESSION_ID_PURPOSE } from '../../../runtime/session/drivers/database-driver.js';
import { parseRecord, serializeRecord } from '../../../runtime/session/session-record.js';
import type { SessionDriver } from '../../../runtime/session/session-store.js';
import { closeAll } from '../http/support/server.js';
import { Jar, setCookies } from './support/jar.js';
import { startSessionServer, type SessionServer } from './support/session-server.js';

const started: SessionServer[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) await s.manager.close();
  await closeAll();
});

/** Sessions in a Map; the cookie holds the sealed ID. `fail` makes reads throw. */
function memoryDriver(state: { rows: Map<string, string>; fail: boolean }): SessionDriver {
  return ({ encrypter, cookieName }) => ({
    eager: true,
    async read(value) {
      if (state.fail) throw new Error('store unreachable');
      const opened = encrypter.open(SESSION_ID_PURPOSE, value, { context: cookieName });
      const row = opened === null ? undefined : state.rows.get(opened.plaintext.toString('utf8'));
      return row === undefined ? null : parseRecord(row);
    },
    async write(record, revoke) {
      if (revoke !== null) state.rows.delete(revoke);
      state.rows.set(record.id, serializeRecord(record));
      return encrypter.seal(SESSION_ID_PURPOSE, record.id, { context: cookieName });
    },
    async revoke(id) {
      state.rows.delete(id);
    },
  });
}

describe('Session drivers | an app driver', () => {
  it('is selected by SESSION_DRIVER and revokes on invalidate', async () => {
    const state = { rows: new Map<string, string>(), fail: false };
    const s = await startSessionServer({ env: { SESSION_DRIVER: 'memory' }, drivers: { memory: memoryDriver(state) } });
    started.push(s);
    const jar = new Jar();
    await jar.fetch(`${s.url}/s/login?user=5`);
    expect(state.rows.size).toBe(1);
    const copy = jar.get('app_session')!;
    await jar.fetch(`${s.url}/s/invalidate`);
    expect(state.rows.size).toBe(0);
    expect(await (await fetch(`${s.url}/s/whoami`, { headers: { cookie: `app_session=${copy}` } })).json()).toEqual({
      user: null,
      id: null,
    });
  });

  it('a store that fails fails the request (500) and leaves the cookie alone', async () => {
    const state = { rows: new Map<string, string>(), fail: false };
    const s = await startSessionServer({ env: { SESSION_DRIVER: 'memory' }, drivers: { memory: memoryDriver(state) } });
    started.push(s);
    const jar = new Jar();
    await jar.fetch(`${s.url}/s/put?key=a&value=1`);
    state.fail = true;
    const res = await jar.fetch(`${s.url}/s/get?key=a`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(500);
    expect(setCookies(res)).toEqual([]);
    state.fail = false;
    expect(await (await jar.fetch(`${s.url}/s/get?key=a`)).json()).toEqual({ value: '1', exists: true });
  });
});
