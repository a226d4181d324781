/** The users of the app for the auth layer (docs/auth.md in the bindery package, "User provider"). */
import type { Kysely } from 'kysely';
import { normalizeLogin, type UserProvider } from 'bindery/auth';
import type { Database, User } from '../../generated/types.js';

/** The user lookups over the `users` table; authentication IDs are the decimal `users.id`. */
export function databaseUsers(db: Kysely<Database>): UserProvider<User> {
  const byId = async (id: string) =>
    /^[1-9]\d{0,15}$/.test(id)
      ? ((await db.selectFrom('users').selectAll().where('id', '=', Number(id)).executeTakeFirst()) ?? null)
      : null;
  return {
    idOf: (user) => String(user.id),
    passwordHashOf: (user) => user.password,
    findById: byId,
    async findByLogin(login) {
      return (await db.selectFrom('users').selectAll().where('email', '=', normalizeLogin(login)).executeTakeFirst()) ?? null;
    },
    readRememberToken: async () => null,
    writeRememberToken: async () => {},
    async writePasswordHash(user, hash) {
      await db.updateTable('users').set({ password: hash }).where('id', '=', user.id).execute();
    },
  };
}
