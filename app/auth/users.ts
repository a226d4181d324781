/**
 * The reference app's users for the auth layer (docs/spec.md 2.1 "The
 * application supplies lookups to the auth layer"; docs/auth.md "User
 * provider"): the `users` table through Kysely.
 */
import type { Kysely } from 'kysely';
import type { Database, User } from '../../generated/types.js';
import { authService, normalizeLogin, type UserProvider } from 'bindery/auth';
import { compiledQuery } from 'bindery/db';
import { HttpError } from 'bindery/errors';
import type { RequestContext } from 'bindery/http';

/** The user by ID: asked on every signed-in request, so compiled once (docs/database.md "Compiled queries"). */
const userById = compiledQuery((db, id: number) => (db as Kysely<Database>).selectFrom('users').selectAll().where('id', '=', id));

/** Authentication IDs are the decimal string of `users.id`: a positive safe integer without leading zeros. */
const ID = /^[1-9]\d{0,15}$/;

/**
 * The user lookups over the `users` table: by ID, by email (trimmed, lower
 * case), the remember token (read and write) and the upgraded-hash writer.
 *
 * @example auth({ users: ({ db }) => databaseUsers(db) })
 */
export function databaseUsers(db: Kysely<Database>): UserProvider<User> {
  return {
    idOf: (user) => String(user.id),
    passwordHashOf: (user) => user.password,
    async findById(id) {
      if (!ID.test(id) || !Number.isSafeInteger(Number(id))) return null;
      return (await userById(db, Number(id)))[0] ?? null;
    },
    async findByLogin(login) {
      const email = normalizeLogin(login);
      if (email === '') return null;
      return (await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst()) ?? null;
    },
    async readRememberToken(user) {
      const row = await db.selectFrom('users').select('remember_token').where('id', '=', user.id).executeTakeFirst();
      return row?.remember_token ?? null;
    },
    async writeRememberToken(user, token) {
      await db.updateTable('users').set({ remember_token: token }).where('id', '=', user.id).execute();
    },
    async writePasswordHash(user, hash) {
      await db.updateTable('users').set({ password: hash, updated_at: new Date() }).where('id', '=', user.id).execute();
    },
  };
}

/**
 * The signed-in user of a `member` route (the `require` guard already loaded it).
 * @throws {HttpError} 401 when there is none (a route without the guard).
 */
export async function currentUser(ctx: RequestContext): Promise<User> {
  const user = (await ctx.auth.user()) as User | null;
  if (user === null) throw new HttpError(401, 'You are not signed in; sign in and try again.', { code: 'BINDERY_AUTH_UNAUTHENTICATED' });
  return user;
}

/** The app's auth service, typed with its user row. */
export function accounts(ctx: RequestContext) {
  return authService<User>(ctx);
}
