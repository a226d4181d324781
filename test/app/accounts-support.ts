/**
 * Shared set-up of the account tests: the reference app on a fresh
 * database, users made directly in the table, and the service.
 */
import type { Kysely } from 'kysely';
import app from '../../app/main.js';
import type { Database, User } from '../../generated/types.js';
import type { AuthService } from '../../runtime/auth/index.js';
import { createTestApp, type TestApp } from '../../runtime/app/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';
import { insertReturning } from '../../runtime/db/portable-writes.js';

/** A booted reference app and its database. */
export interface AccountsApp {
  readonly t: TestApp<Database>;
  readonly db: Kysely<Database>;
  readonly auth: AuthService<User>;
  readonly url: string;
  close(): Promise<void>;
}

/** Boot the reference app on a fresh database (extra settings in `env`). */
export async function bootAccounts(prefix: string, env: Record<string, string> = {}): Promise<AccountsApp> {
  const database: TestDatabase = await createTestDatabase(prefix);
  try {
    const t = await createTestApp<Database>(app, { databaseUrl: database.url, env: { ...referenceAppEnv, ...env } });
    return {
      t,
      db: t.db,
      auth: t.running.services.auth as AuthService<User>,
      url: t.url,
      async close() {
        await t.close();
        await database.drop();
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

let counter = 0;

/** Insert a user with `password` hashed by the app (or the `hash` given). */
export async function makeUser(
  a: AccountsApp,
  fields: { name?: string; email?: string; password?: string; hash?: string; admin?: boolean } = {},
): Promise<User> {
  counter++;
  const password = fields.hash ?? (await a.auth.hashPassword(fields.password ?? 'correct horse battery'));
  return insertReturning(a.db, 'users', {
    name: fields.name ?? `User ${counter}`,
    email: fields.email ?? `user${counter}-${Date.now()}@example.test`,
    password,
    admin: fields.admin ?? false,
  });
}

/** Forget every throttle count and cached value (tests share 127.0.0.1). */
export async function clearCache(a: AccountsApp): Promise<void> {
  await a.db.deleteFrom('bindery_cache' as any).execute();
}
