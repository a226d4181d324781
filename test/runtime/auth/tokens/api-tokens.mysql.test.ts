/**
 * API tokens on MariaDB (docs/tokens.md): the `auth` migration set's MySQL
 * file applied by the runtime migrator; a token created (its row read back
 * without `RETURNING`), found by its plain text, its abilities kept as a
 * JSON array, its last use written once a minute, revoked; secrets and
 * names compared byte for byte.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTokens } from '../../../../runtime/auth/tokens/api-tokens.js';
import { AUTH_MIGRATIONS_DIR } from '../../../../runtime/auth/tokens/tokens-step.js';
import { connectDatabase, type Database } from '../../../../runtime/db/index.js';
import { isCheckViolation } from '../../../../runtime/db/database-errors.js';
import { createMigrator } from '../../../../runtime/db/migrator/index.js';
import { createTestMariaDatabase, type TestDatabase } from '../../../support/database.js';

let testDb: TestDatabase;
let database: Database;
let db: Kysely<any>;
let clock = Date.UTC(2026, 0, 1, 12, 0, 0, 123);
const now = () => clock;

beforeAll(async () => {
  testDb = await createTestMariaDatabase('tokensmaria');
  database = await connectDatabase({ url: testDb.url, max: 4 });
  db = database.db;
  await createMigrator(database, [{ source: 'auth', dir: AUTH_MIGRATIONS_DIR }]).migrate();
});
afterAll(async () => {
  await database?.close();
  await testDb?.drop();
});

describe('API tokens on MariaDB', () => {
  it('the migrator applied the auth set from its mysql/ folder', async () => {
    const applied = await db.selectFrom('bindery_migrations').select(['source', 'name']).where('source', '=', 'auth').execute();
    expect(applied).toEqual([{ source: 'auth', name: '0001_create_api_tokens.sql' }]);
  });

  it('creates a token and finds it by its plain text, with its abilities and times', async () => {
    const tokens = new ApiTokens(db, now);
    const { plain, token } = await tokens.create('user-🦄', {
      name: 'CLI ✨',
      abilities: ['profile:read', 'notes:write'],
      lifetimeMs: 86_400_000,
    });
    expect(plain).toMatch(new RegExp(`^${token.id}\\|`));
    expect(token).toMatchObject({
      userId: 'user-🦄',
      name: 'CLI ✨',
      abilities: ['profile:read', 'notes:write'],
      lastUsedAt: null,
      expiresAt: new Date(clock + 86_400_000),
      createdAt: new Date(clock),
    });
    const found = await tokens.check(plain);
    expect(found).toEqual(token);
    expect(await tokens.list('user-🦄')).toEqual([token]);
    expect(await tokens.list('USER-🦄')).toEqual([]);
  });

  it('a secret differing in one letter case is refused; an expired token is refused', async () => {
    const tokens = new ApiTokens(db, now);
    const { plain } = await tokens.create('case', { name: 'Case', lifetimeMs: 1000 });
    const [id, secret] = plain.split('|') as [string, string];
    const i = [...secret].findIndex((c) => c.toLowerCase() !== c.toUpperCase());
    const flipped =
      secret.slice(0, i) +
      (secret[i] === secret[i]!.toLowerCase() ? secret[i]!.toUpperCase() : secret[i]!.toLowerCase()) +
      secret.slice(i + 1);
    expect(await tokens.check(`${id}|${flipped}`)).toBeNull();
    expect(await tokens.check(plain)).not.toBeNull();
    clock += 1000;
    expect(await tokens.check(plain)).toBeNull();
  });

  it('writes the last use at most once a minute', async () => {
    const tokens = new ApiTokens(db, now);
    const { plain } = await tokens.create('touch', { name: 'Touch' });
    const token = (await tokens.check(plain))!;
    expect(await tokens.touch(token)).toBe(true);
    const touched = (await tokens.check(plain))!;
    expect(touched.lastUsedAt).toEqual(new Date(clock));
    clock += 30_000;
    expect(await tokens.touch(touched)).toBe(false);
    clock += 30_000;
    expect(await tokens.touch(touched)).toBe(true);
    expect((await tokens.check(plain))!.lastUsedAt).toEqual(new Date(clock));
  });

  it("revokes one token of its owner only, and all of a user's tokens", async () => {
    const tokens = new ApiTokens(db, now);
    const a = await tokens.create('ann', { name: 'one' });
    const b = await tokens.create('ann', { name: 'two' });
    expect(await tokens.revoke('bob', a.token.id)).toBe(false);
    expect(await tokens.revoke('ann', a.token.id)).toBe(true);
    expect(await tokens.check(a.plain)).toBeNull();
    expect((await tokens.list('ann')).map((t) => t.name)).toEqual(['two']);
    expect(await tokens.revokeAllIn(db, 'ann')).toBe(1);
    expect(await tokens.check(b.plain)).toBeNull();
  });

  it('the abilities column holds a JSON array only', async () => {
    const error = await sql`insert into api_tokens (user_id, name, token_hash, abilities) values ('x', 'x', ${'f'.repeat(64)}, '{"a":1}')`
      .execute(db)
      .catch((e: unknown) => e);
    expect(isCheckViolation(error)).toBe(true);
  });
});
