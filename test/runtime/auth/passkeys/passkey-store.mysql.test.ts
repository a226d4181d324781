/**
 * Passkeys' tables on MariaDB (docs/auth.md "Passkeys"): the `passkeys`
 * migration set's MySQL file applied by the runtime migrator; the user
 * handle made once, credentials stored (public key bytes, transports, the
 * backed-up flag as a boolean), IDs byte-exact, the counter moved only from
 * the value an assertion was checked against, removal per owner, rows gone
 * with their account's handle.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasskeyStore } from '../../../../runtime/auth/passkeys/passkey-store.js';
import { PASSKEYS_MIGRATIONS_DIR } from '../../../../runtime/auth/passkeys/passkeys-step.js';
import { connectDatabase, type Database } from '../../../../runtime/db/index.js';
import { createMigrator } from '../../../../runtime/db/migrator/index.js';
import { createTestMariaDatabase, type TestDatabase } from '../../../support/database.js';

let testDb: TestDatabase;
let database: Database;
let db: Kysely<any>;
let store: PasskeyStore;

beforeAll(async () => {
  testDb = await createTestMariaDatabase('passkeysmaria');
  database = await connectDatabase({ url: testDb.url, max: 4 });
  db = database.db;
  await createMigrator(database, [{ source: 'passkeys', dir: PASSKEYS_MIGRATIONS_DIR }]).migrate();
  store = new PasskeyStore(db);
});
afterAll(async () => {
  await database?.close();
  await testDb?.drop();
});

const key = Uint8Array.from({ length: 77 }, (_, i) => (i * 37) % 256);
const passkey = (id: string, userId: string, name = 'Laptop 💻') => ({
  id,
  userId,
  name,
  publicKey: key,
  counter: 0,
  transports: ['internal', 'hybrid'],
  deviceType: 'multiDevice',
  backedUp: true,
});

describe('Passkeys on MariaDB', () => {
  it('the migrator applied the passkeys set from its mysql/ folder', async () => {
    const applied = await db.selectFrom('bindery_migrations').select(['source', 'name']).where('source', '=', 'passkeys').execute();
    expect(applied).toEqual([{ source: 'passkeys', name: '0001_create_passkeys.sql' }]);
  });

  it('makes a user handle once and finds the account by it, byte for byte', async () => {
    const handle = await store.handleOf('ada');
    expect(handle).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await store.handleOf('ada')).toBe(handle);
    expect(await store.userOfHandle(handle)).toBe('ada');
    const flipped = handle.replace(/[a-z]/, (c) => c.toUpperCase());
    if (flipped !== handle) expect(await store.userOfHandle(flipped)).toBeNull();
  });

  it('stores credentials as given; IDs differing in case are distinct; a taken ID is refused', async () => {
    await store.handleOf('ada');
    const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678));
    expect(await store.add(passkey('cred-A', 'ada'), at)).toBe(true);
    expect(await store.add({ ...passkey('cred-a', 'ada', 'Phone 📱'), backedUp: false, transports: [] }, new Date(at.getTime() + 1))).toBe(
      true,
    );
    expect(await store.add(passkey('cred-A', 'ada', 'again'), at)).toBe(false);
    const found = (await store.find('cred-A'))!;
    expect(found).toEqual({ ...passkey('cred-A', 'ada'), createdAt: at, lastUsedAt: null });
    expect(found.publicKey).toEqual(key);
    expect(found.backedUp).toBe(true);
    expect((await store.find('cred-a'))!).toMatchObject({ name: 'Phone 📱', backedUp: false, transports: [] });
    expect((await store.list('ada')).map((p) => p.id)).toEqual(['cred-A', 'cred-a']);
  });

  it('moves the counter only from the value the assertion was checked against', async () => {
    const used = new Date(Date.UTC(2026, 0, 3));
    expect(await store.used('cred-A', 0, 5, used)).toBe(true);
    expect(await store.used('cred-A', 0, 6, used)).toBe(false);
    expect(await store.find('cred-A')).toMatchObject({ counter: 5, lastUsedAt: used });
  });

  it("removes a credential of its owner only; an account's credentials go with its handle", async () => {
    await store.handleOf('bob');
    await store.add(passkey('bob-1', 'bob'), new Date());
    expect(await store.remove('ada', 'bob-1')).toBe(false);
    expect(await store.remove('bob', 'bob-1')).toBe(true);
    expect(await store.find('bob-1')).toBeNull();
    await db.deleteFrom('bindery_passkey_users').where('user_id', '=', 'ada').execute();
    expect(await store.list('ada')).toEqual([]);
  });
});
