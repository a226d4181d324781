/**
 * A stand-in for the `auth()` step in the runtime tests of tokens, links and
 * external sign-in: the `AuthService` contract (runtime/auth/auth-service.ts)
 * over a `users` table with the docs/spec.md 2.1 columns, with fast, visible
 * password "hashes" and a record of the calls part B makes (`login`,
 * `signOutEverywhere`). The real service is exercised by the app tests.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import type { SetupStep } from '../../../../runtime/app/index.js';
import type { AuthService } from '../../../../runtime/auth/auth-service.js';
import { normalizeLogin, RequestAuth, type UserProvider } from '../../../../runtime/auth/index.js';
import { HttpError } from '../../../../runtime/errors/index.js';
import type { Middleware } from '../../../../runtime/http/handler.js';
import { insertReturning } from '../../../../runtime/db/portable-writes.js';

/** A row of the fixture's `users`. */
export interface TestUser {
  id: number;
  name: string;
  email: string;
  password: string;
  remember_token: string | null;
  email_verified_at: Date | null;
  admin: boolean;
  created_at: Date;
  updated_at: Date;
}

/** What the fake service was asked to do. */
export interface FakeAuthCalls {
  readonly logins: string[];
  readonly signedOutEverywhere: string[];
  /** Awaited by `hashPassword` before it answers (tests hold two resets there to race them). */
  beforeHash?: () => Promise<void>;
}

export const USERS_MIGRATIONS_DIR = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** The stand-in's "hash": visible and fast (the real one is argon2id). */
export const fakeHash = (plain: string): string => `fake$${plain}`;

/** A session-like sign-in for tests: `X-Test-User: <id>` signs the request in as that user, by session (any ability). */
const sessionLike =
  (users: UserProvider<TestUser>): Middleware =>
  async (ctx, next) => {
    const id = ctx.request.headers['x-test-user'];
    if (typeof id === 'string') ctx.auth = new RequestAuth({ via: 'session', id, load: () => users.findById(id) });
    return next();
  };

/** The `require` guard of the stand-in: a guest gets 401. */
const requireUser: Middleware = async (ctx, next) => {
  if (!ctx.auth.signedIn || (await ctx.auth.user()) === null) throw new HttpError(401, 'Sign in first.', { code: 'TEST_UNAUTHENTICATED' });
  return next();
};

function provider(db: Kysely<{ users: TestUser }>): UserProvider<TestUser> {
  return {
    idOf: (u) => String(u.id),
    passwordHashOf: (u) => u.password,
    async findById(id) {
      if (!/^[1-9]\d{0,14}$/.test(id)) return null;
      return (await db.selectFrom('users').selectAll().where('id', '=', Number(id)).executeTakeFirst()) ?? null;
    },
    async findByLogin(login) {
      return (await db.selectFrom('users').selectAll().where('email', '=', normalizeLogin(login)).executeTakeFirst()) ?? null;
    },
  };
}

/**
 * The stand-in step, named `auth` like the real one: `ctx.services.auth`,
 * middleware `session-like` and `require`, migration set `test-users`.
 */
export function fakeAuth(calls: FakeAuthCalls = { logins: [], signedOutEverywhere: [] }): SetupStep {
  return {
    name: 'auth',
    migrations: [{ source: 'test-users', dir: USERS_MIGRATIONS_DIR }],
    setup(ctx) {
      const users = provider(ctx.database.db);
      const service: AuthService<TestUser> = {
        users,
        loginUrl: '/login',
        homeUrl: '/dashboard',
        intendedUrl: () => '/dashboard',
        attempt: () => {
          throw new Error('not in the stand-in');
        },
        verifyCredentials: () => {
          throw new Error('not in the stand-in');
        },
        async login(_ctx, user) {
          calls.logins.push(String(user.id));
        },
        async loginWithSecondFactor(_ctx, user) {
          calls.logins.push(String(user.id));
        },
        logout: () => {
          throw new Error('not in the stand-in');
        },
        useSecondFactor: () => {
          throw new Error('not in the stand-in');
        },
        async hashPassword(plain) {
          await calls.beforeHash?.();
          return fakeHash(plain);
        },
        verifyPassword: async (hash, plain) => hash === fakeHash(plain),
        fingerprint: (hash) => createHash('sha256').update(hash).digest('hex').slice(0, 32),
        async signOutEverywhere(user) {
          calls.signedOutEverywhere.push(String(user.id));
        },
      };
      ctx.services.auth = service;
      ctx.addMiddleware('session-like', sessionLike(users));
      ctx.addMiddleware('require', requireUser);
    },
  };
}

/** Insert a user of the fixture table. */
export async function insertUser(db: Kysely<any>, fields: Partial<Omit<TestUser, 'id'>> & { id?: number } = {}): Promise<TestUser> {
  const n = Math.random().toString(36).slice(2, 10);
  return insertReturning(db as Kysely<{ users: TestUser }>, 'users', {
    ...(fields.id === undefined ? {} : { id: fields.id }),
    name: fields.name ?? `User ${n}`,
    email: fields.email ?? `user-${n}@example.test`,
    password: fields.password ?? fakeHash('old password'),
    email_verified_at: fields.email_verified_at ?? null,
    admin: fields.admin ?? false,
  } as any);
}
