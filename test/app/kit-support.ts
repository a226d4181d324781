/**
 * The reference app under the test kit (bindery/testing, docs/testing.md),
 * shared by the app tests written with it: boot on a fresh database, users
 * made directly in the table.
 */
import { bootTestKit, type TestClock, type TestKit } from 'bindery/testing';
import type { AuthService } from 'bindery/auth';
import app from '../../app/main.js';
import type { Handlers } from '../../generated/handlers.js';
import { routes } from '../../generated/routes.js';
import type { Database, User } from '../../generated/types.js';
import { testServerUrl } from '../support/database.js';
import { referenceAppEnv } from '../support/reference-app-env.js';
import { insertReturning } from '../../runtime/db/portable-writes.js';

/** The kit over the reference app. */
export type ReferenceKit = TestKit<Handlers, Database>;

/** Boot the reference app on a fresh database named `<prefix>_…` (extra settings in `env`, an app clock in `clock`). */
export function bootReferenceKit(prefix: string, options: { env?: Record<string, string>; clock?: TestClock } = {}): Promise<ReferenceKit> {
  return bootTestKit<Handlers, Database>(app, {
    routes,
    serverUrl: testServerUrl(),
    prefix,
    env: { ...referenceAppEnv, ...options.env },
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
}

let counter = 0;

/** Insert a user whose password (default `correct horse battery`) the app hashed. */
export async function makeUser(
  t: ReferenceKit,
  fields: { name?: string; email?: string; password?: string; admin?: boolean; verified?: boolean } = {},
): Promise<User> {
  counter++;
  const auth = t.app.running.services['auth'] as AuthService<User>;
  return insertReturning(t.db, 'users', {
    name: fields.name ?? `User ${counter}`,
    email: fields.email ?? `user${counter}-${Date.now()}@example.test`,
    password: await auth.hashPassword(fields.password ?? 'correct horse battery'),
    admin: fields.admin ?? false,
    ...(fields.verified ? { email_verified_at: new Date(t.clock?.now() ?? Date.now()) } : {}),
  });
}

/** Forget every throttle count and cached value (the tests of a file share 127.0.0.1). */
export async function clearCache(t: ReferenceKit): Promise<void> {
  await t.db.deleteFrom('bindery_cache' as never).execute();
}
