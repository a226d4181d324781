import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Encrypter, KeyRing } from '../../../runtime/crypto/index.js';
import { cookieDriver, OPENED_COOKIES_KEPT } from '../../../runtime/session/drivers/cookie-driver.js';
import { newSessionRecord } from '../../../runtime/session/session-record.js';
import type { SessionStore } from '../../../runtime/session/session-store.js';

/** The cookie driver over a real encrypter that counts its decryptions. */
async function driver(): Promise<{ store: SessionStore; opens: () => number; encrypter: Encrypter }> {
  const encrypter = new Encrypter(new KeyRing(randomBytes(32)));
  let opens = 0;
  const open = encrypter.open.bind(encrypter);
  encrypter.open = (...args: Parameters<Encrypter['open']>) => {
    opens++;
    return open(...args);
  };
  const store = await cookieDriver({
    encrypter,
    cookieName: 'app_session',
    maxCookieBytes: 4096,
    lifetimeMs: 3_600_000,
    maxLifetimeMs: 0,
    now: Date.now,
    database: undefined,
    log: console as never,
  });
  return { store, opens: () => opens, encrypter };
}

describe('cookie driver | recently opened cookies are not decrypted again', () => {
  it('the same cookie opens once; each read still gets its own record', async () => {
    const { store, opens } = await driver();
    const record = newSessionRecord(Date.now());
    record.values.greeting = 'hello';
    const value = store.write(record, null) as string;
    const a = store.read(value) as ReturnType<typeof newSessionRecord>;
    const b = store.read(value) as ReturnType<typeof newSessionRecord>;
    expect(a.values.greeting).toBe('hello');
    expect(b).toEqual(a);
    expect(b).not.toBe(a);
    a.values.greeting = 'changed';
    expect((store.read(value) as typeof a).values.greeting).toBe('hello');
    expect(opens()).toBe(1);
  });

  it('a tampered or foreign cookie does not open, and is tried again each time', async () => {
    const { store, opens } = await driver();
    const other = await driver();
    const foreign = other.store.write(newSessionRecord(Date.now()), null) as string;
    expect(store.read(foreign)).toBeNull();
    expect(store.read(foreign)).toBeNull();
    expect(opens()).toBe(2);
  });

  it(`keeps at most ${OPENED_COOKIES_KEPT} cookies, dropping the least recently used`, async () => {
    const { store, opens } = await driver();
    const values = Array.from({ length: OPENED_COOKIES_KEPT + 1 }, () => store.write(newSessionRecord(Date.now()), null) as string);
    for (const v of values) store.read(v);
    expect(opens()).toBe(OPENED_COOKIES_KEPT + 1);
    store.read(values[OPENED_COOKIES_KEPT]!);
    expect(opens()).toBe(OPENED_COOKIES_KEPT + 1);
    store.read(values[0]!);
    expect(opens()).toBe(OPENED_COOKIES_KEPT + 2);
  });
});
