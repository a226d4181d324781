/**
 * Two-factor authentication's tables on MariaDB (docs/auth.md "Two-factor
 * authentication", "Two-factor lockout"): the `two-factor` migration set's
 * MySQL files applied by the runtime migrator; the secret sealed and read
 * back, a time step accepted once, single-use recovery codes,
 * and the lockout of wrong codes — counted under a row lock across
 * concurrent attempts, per password, noticed once.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodeLockout, LOCKOUT_AFTER, LOCKOUT_FIRST_MS } from '../../../../runtime/auth/two-factor/code-lockout.js';
import { TwoFactorStore } from '../../../../runtime/auth/two-factor/two-factor-store.js';
import { TWO_FACTOR_MIGRATIONS_DIR } from '../../../../runtime/auth/two-factor/two-factor-step.js';
import { Encrypter } from '../../../../runtime/crypto/encrypter.js';
import { KeyRing } from '../../../../runtime/crypto/key-ring.js';
import { connectDatabase, type Database } from '../../../../runtime/db/index.js';
import { createMigrator } from '../../../../runtime/db/migrator/index.js';
import { createTestMariaDatabase, type TestDatabase } from '../../../support/database.js';

let testDb: TestDatabase;
let database: Database;
let db: Kysely<any>;
let store: TwoFactorStore;
let clock = Date.UTC(2026, 0, 1, 12, 0, 0);
const now = () => clock;

beforeAll(async () => {
  testDb = await createTestMariaDatabase('twofactormaria');
  database = await connectDatabase({ url: testDb.url, max: 8 });
  db = database.db;
  await createMigrator(database, [{ source: 'two-factor', dir: TWO_FACTOR_MIGRATIONS_DIR }]).migrate();
  store = new TwoFactorStore(db, new Encrypter(new KeyRing(randomBytes(32))));
});
afterAll(async () => {
  await database?.close();
  await testDb?.drop();
});

describe('Two-factor on MariaDB | secrets and codes', () => {
  it('the migrator applied the two-factor set from its mysql/ folder', async () => {
    const applied = await db.selectFrom('bindery_migrations').select(['source', 'name']).where('source', '=', 'two-factor').execute();
    expect(applied.map((r) => r.name)).toEqual(['0001_create_two_factor.sql', '0002_two_factor_lockout.sql']);
  });

  it('keeps the secret sealed, accepts a time step once, confirms on the first', async () => {
    await store.replace('ada', 'JBSWY3DPEHPK3PXP', ['code-one', 'code-two']);
    const row = await db.selectFrom('bindery_two_factor').select('secret').where('user_id', '=', 'ada').executeTakeFirstOrThrow();
    expect(row.secret).not.toContain('JBSWY3DPEHPK3PXP');
    expect(await store.read('ada')).toEqual({ secret: 'JBSWY3DPEHPK3PXP', confirmedAt: null, lastUsedStep: null });
    const at = new Date(clock);
    expect(await store.useStep('ada', 56_666_666, true, at)).toBe(true);
    expect(await store.useStep('ada', 56_666_666, false, at)).toBe(false);
    expect(await store.useStep('ada', 56_666_665, false, at)).toBe(false);
    expect(await store.read('ada')).toEqual({ secret: 'JBSWY3DPEHPK3PXP', confirmedAt: at, lastUsedStep: 56_666_666 });
    expect(await store.read('ADA')).toBeNull();
  });

  it('recovery codes are single-use; replacing them drops the old ones', async () => {
    await store.replace('bob', 'SECRET', ['abcd-efgh', 'ijkl-mnop']);
    expect(await store.codesLeft('bob')).toBe(2);
    expect(await store.useRecoveryCode('bob', 'abcd-efgx', new Date(clock))).toBe(false);
    // Codes are normalized before hashing (lower case, no spaces): typed in capitals, it is the same code.
    expect(await store.useRecoveryCode('bob', 'ABCD-EFGH', new Date(clock))).toBe(true);
    expect(await store.useRecoveryCode('bob', 'abcd-efgh', new Date(clock))).toBe(false);
    expect(await store.codesLeft('bob')).toBe(1);
    await store.replaceCodes('bob', ['new-1', 'new-2', 'new-3']);
    expect(await store.codesLeft('bob')).toBe(3);
    expect(await store.useRecoveryCode('bob', 'ijkl-mnop', new Date(clock))).toBe(false);
    expect(await store.remove('bob')).toBe(true);
    expect(await db.selectFrom('bindery_recovery_codes').select('user_id').where('user_id', '=', 'bob').execute()).toEqual([]);
  });
});

describe('Two-factor on MariaDB | the lockout', () => {
  it(`after ${LOCKOUT_AFTER} wrong codes refuses codes for a minute, doubling; a right code clears it`, async () => {
    await store.replace('cy', 'SECRET', []);
    const lockout = new CodeLockout(db, now);
    for (let i = 1; i <= LOCKOUT_AFTER; i++) expect(await lockout.reserve('cy', 'fp1')).toEqual({ allowed: true, failures: i });
    expect(await lockout.reserve('cy', 'fp1')).toEqual({ allowed: false, retryAfterMs: LOCKOUT_FIRST_MS });
    expect(await lockout.claimNotice('cy', 'fp1')).toBe(true);
    expect(await lockout.claimNotice('cy', 'fp1')).toBe(false);
    clock += LOCKOUT_FIRST_MS;
    expect(await lockout.reserve('cy', 'fp1')).toEqual({ allowed: true, failures: LOCKOUT_AFTER + 1 });
    expect(await lockout.reserve('cy', 'fp1')).toEqual({ allowed: false, retryAfterMs: 2 * LOCKOUT_FIRST_MS });
    // Another password starts a fresh count.
    expect(await lockout.reserve('cy', 'fp2')).toEqual({ allowed: true, failures: 1 });
    await lockout.clear('cy');
    const row = await db
      .selectFrom('bindery_two_factor')
      .select(['failed_codes', 'locked_until', 'failures_fp', 'lockout_notified_at'])
      .where('user_id', '=', 'cy')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ failed_codes: 0, locked_until: null, failures_fp: null, lockout_notified_at: null });
  });

  it('concurrent attempts are counted one by one: no more codes are checked than the count allows', async () => {
    await store.replace('dee', 'SECRET', []);
    const lockout = new CodeLockout(db, now);
    const attempts = await Promise.all(Array.from({ length: 12 }, () => lockout.reserve('dee', 'fp')));
    const allowed = attempts.filter((a) => a.allowed);
    expect(allowed.map((a) => (a as { failures: number }).failures).sort((x, y) => x - y)).toEqual(
      Array.from({ length: LOCKOUT_AFTER }, (_, i) => i + 1),
    );
    expect(attempts.filter((a) => !a.allowed)).toHaveLength(12 - LOCKOUT_AFTER);
  });
});
