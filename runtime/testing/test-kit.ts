/**
 * The test kit (docs/testing.md): an app booted in process on its own
 * database, callers by route name, signed-in browsers, API tokens, the
 * app's policies asked directly, the mail outbox.
 */
import type { Kysely } from 'kysely';
import type { App } from '../app/define-app.js';
import { createTestApp, type TestApp } from '../app/test-app.js';
import type { ApiTokens } from '../auth/tokens/index.js';
import type { Env } from '../config/setting.js';
import { readOutbox, type OutboxMessage } from '../mail/index.js';
import type { RouteTable } from '../routing/route-table.js';
import { TestCaller, type InputOf, type RequestOptions, type TestResponse, type BodyOf } from './caller.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';
import type { TestClock } from './test-clock.js';
import { TestPasskey } from './passkey-authenticator.js';
import {
  registerPasskey,
  signInPastSecondFactor,
  signInWith,
  signInWithPasskey,
  type PasskeyRoutes,
  type SignInOptions,
  type SignInUser,
} from './sign-in.js';

export type { PasskeyRoutes, SignInOptions, SignInUser };
import type { AnyKysely } from '../db/any-kysely.js';
import type { UntypedTables } from '../db/any-kysely.js';
import { requireService } from '../http/require-service.js';
import type { Services } from '../http/context.js';
import type { Policies } from '../authorization/policies.js';
import type { RowScope } from '../authorization/scopes.js';
import { RequestAuth } from '../context/request-auth.js';
import { BinderyError } from '../errors/bindery-error.js';

/** The identity of `user` (a guest for null): signed in by session, or by a bearer token with `abilities`. */
function callerAuth(user: { readonly id: string | number } | null, abilities: readonly string[] | undefined): RequestAuth {
  if (user === null) return new RequestAuth(null);
  return new RequestAuth({
    via: abilities === undefined ? 'session' : 'token',
    id: String(user.id),
    load: () => Promise.resolve(user),
    ...(abilities === undefined ? {} : { token: { id: 'test', name: 'test token', abilities } }),
  });
}

/** The app's policies, or a `BINDERY_SERVICE_NOT_SET_UP` naming the setup call. */
function policiesOf(services: object, use: string): Policies {
  const policies = (services as { policies?: Policies }).policies;
  if (policies === undefined)
    throw new BinderyError(
      'BINDERY_SERVICE_NOT_SET_UP',
      `${use} needs the app's policies: add authorization({ policies }) to the setup list of app/main.ts.`,
    );
  return policies;
}

/** Options of {@link bootTestKit}. */
export interface TestKitOptions {
  /** The app's generated route table (`routes` from `generated/routes.ts`). */
  readonly routes: RouteTable;
  /** Settings on top of the test defaults (`APP_ENV=testing`, a fresh `APP_KEY`, silent logs). */
  readonly env?: Env;
  /** Name prefix of the test database, default `test`. */
  readonly prefix?: string;
  /**
   * The database server; its scheme picks the engine. Default: on PostgreSQL
   * `BINDERY_TEST_DATABASE_URL`, then `DATABASE_URL`; with
   * `BINDERY_TEST_ENGINE=mariadb`, `BINDERY_TEST_MARIADB_URL`, then
   * `MARIADB_URL` (see `createTestDatabase`).
   */
  readonly serverUrl?: string;
  /**
   * The app's clock (docs/testing.md#time): every setup step reads time from
   * it (login throttles, remember-me cookies, reset and verification links,
   * API token expiry, cache entries and rate limits, sessions). Default: the
   * real time.
   */
  readonly clock?: TestClock;
}

/** {@link TestKitOptions} with the app's factories: `createFactories` from `generated/factories.ts`, bound to the test database as `t.factories`. */
export interface TestKitFactoryOptions<DB, F> extends TestKitOptions {
  readonly factories: (db: Kysely<DB>) => F;
}

/** A booted app for tests. `H` is the app's generated `Handlers`, `DB` its `Database`, `F` its generated `Factories` (when given). */
export interface TestKit<H, DB, F = undefined> {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Kysely over the test database. */
  readonly db: Kysely<DB>;
  /**
   * The factories of option `factories` writing to the test database
   * (`t.factories.Note.create({ title })`; docs/database.md "Factories"), or
   * undefined without the option.
   */
  readonly factories: F;
  /** The test database (dropped by `close`). */
  readonly database: TestDatabase;
  /** The booted app (`running.services`, the Fastify instance). */
  readonly app: TestApp<DB>;
  /** The clock given in the options, or `undefined` (the app runs on the real time). */
  readonly clock: TestClock | undefined;
  /** Call a route by name as an API client (JSON, no cookies); see {@link TestCaller.request}. */
  request<K extends keyof H & string>(
    name: K,
    input?: Partial<InputOf<H[K]>> & Record<string, unknown>,
    options?: RequestOptions,
  ): Promise<TestResponse<BodyOf<H[K]>>>;
  /** A fresh browser: a cookie jar and the CSRF token of the last page it read. */
  browser(): TestCaller<H>;
  /**
   * A browser signed in through the app's own login route, in one call: it
   * reads `page` (default `/login`) for the CSRF token, then posts
   * `credentials` to route `loginRoute` as a form.
   *
   * @throws {Error} when the login does not redirect, or redirects back to `page` (wrong credentials, throttled).
   */
  signIn<K extends keyof H & string>(
    loginRoute: K,
    credentials: Partial<InputOf<H[K]>> & Record<string, unknown>,
    page?: string,
  ): Promise<TestCaller<H>>;
  /**
   * A browser signed in with `user`'s email and password through the app's
   * login (`options.loginRoute`, default `accounts.login`, from
   * `options.page`, default `/login`), past its second factor: with
   * `totp: true` the kit computes a code the account accepts now from its
   * stored secret (`ctx.services.twoFactor`; the current time step's, or
   * the next one's when that was used) and posts it to
   * `options.challengeRoute` (default `twoFactor.challenge`); with
   * `recoveryCode` it posts that instead (docs/testing.md "Two-factor").
   *
   * @throws {Error} when the password step or the code is refused.
   * @example const browser = await t.signIn({ email: user.email, password: 'correct horse battery' }, { totp: true });
   */
  signIn(user: SignInUser, options?: SignInOptions): Promise<TestCaller<H>>;
  /** A software passkey for the app's origin (`APP_URL`), to register and sign in with over HTTP (docs/testing.md "Passkeys"). */
  passkey(): TestPasskey;
  /**
   * Register `key` for the user signed in on `browser` through
   * `passkeys.options` and `passkeys.store` (route names of the reference
   * app; `routes` to change them). When the options need a fresh password
   * confirmation (423) and `password` is given, it is confirmed first
   * (`confirm.store`).
   * @throws {Error} when a step is refused.
   */
  registerPasskey(
    browser: TestCaller<H>,
    key: TestPasskey,
    options?: { readonly name?: string; readonly password?: string; readonly routes?: PasskeyRoutes },
  ): Promise<TestResponse>;
  /**
   * A fresh browser signed in with `key` (usernameless) through
   * `passkeys.loginOptions` and `passkeys.login`.
   * @throws {Error} when the sign-in is refused.
   */
  signInWithPasskey(key: TestPasskey, options?: { readonly routes?: PasskeyRoutes }): Promise<TestCaller<H>>;
  /**
   * An API client carrying a new bearer token of user `userId` (through the
   * app's `ctx.services.apiTokens`; the app needs the `tokens()` setup step),
   * with `abilities` (default none) and, given `options.lifetimeMs`, an expiry
   * that long after the app's clock's now.
   *
   * @throws {Error} when the app has no token service.
   */
  withToken(
    userId: string | number,
    abilities?: readonly string[],
    options?: { readonly lifetimeMs?: number },
  ): Promise<TestCaller<H> & { readonly token: string }>;
  /**
   * Ask the app's policies (docs/authorization.md "Testing a policy") as
   * `user` — a row of the users table (or `null`, a guest), or with
   * `abilities` a bearer token of theirs: may they do `action` to `row`
   * (without a row: to some row)? No request is made.
   *
   * @throws {BinderyError} `BINDERY_SERVICE_NOT_SET_UP` without `authorization()`; `BINDERY_POLICY_INVALID` for an unknown action.
   * @example expect(await t.can(author, 'documents.update', doc)).toBe(true);
   */
  can(
    user: { readonly id: string | number } | null,
    action: string,
    row?: object,
    options?: { readonly abilities?: readonly string[] },
  ): Promise<boolean>;
  /**
   * The rows `user` may do `action` to, as a condition for Kysely's `where`
   * (the scope a list of the action is narrowed by).
   * @example await t.db.selectFrom('documents').select('id').where(await t.scope(author, 'documents.view')).execute()
   */
  scope(
    user: { readonly id: string | number } | null,
    action: string,
    options?: { readonly abilities?: readonly string[] },
  ): Promise<RowScope>;
  /** The mail outbox (`MAIL_DRIVER=outbox`), newest first, optionally only to `to`. */
  outbox(to?: string): Promise<OutboxMessage[]>;
  /** Stop the app and drop its database. Call it in `afterAll`. */
  close(): Promise<void>;
}

/**
 * Boot `app` in process on a fresh database (migrations applied), on
 * `127.0.0.1` and a free port, with the outbox mail driver, on the real time
 * or `options.clock`.
 *
 * @throws whatever booting the app throws (settings, migrations, listen); the database is dropped first.
 * @example
 *   const t = await bootTestKit<Handlers, Database>(app, { routes });
 *   afterAll(() => t.close());
 *   const res = await t.request('notes.create', { title: 'x' });
 *   expect(res.status).toBe(201);
 * @example
 *   const clock = testClock();
 *   const t = await bootTestKit<Handlers, Database>(app, { routes, clock });
 *   clock.advance(61_000); // a minute later for throttles, links, tokens, caches
 */
export async function bootTestKit<H, DB = UntypedTables>(app: App, options: TestKitOptions): Promise<TestKit<H, DB>>;
export async function bootTestKit<H, DB, F>(app: App, options: TestKitFactoryOptions<DB, F>): Promise<TestKit<H, DB, F>>;
export async function bootTestKit<H, DB = UntypedTables, F = undefined>(
  app: App,
  options: TestKitOptions & { readonly factories?: (db: Kysely<DB>) => F },
): Promise<TestKit<H, DB, F>> {
  const database = await createTestDatabase({
    ...(options.serverUrl === undefined ? {} : { serverUrl: options.serverUrl }),
    prefix: options.prefix ?? 'test',
  });
  let booted: TestApp<DB>;
  try {
    booted = await createTestApp<DB>(app, {
      databaseUrl: database.url,
      env: { MAIL_DRIVER: 'outbox', ...options.env },
      ...(options.clock === undefined ? {} : { now: options.clock.now }),
    });
  } catch (error) {
    await database.drop();
    throw error;
  }
  const { routes } = options;
  const api = new TestCaller<H>(booted.url, routes);
  return {
    url: booted.url,
    db: booted.db,
    factories: (options.factories ? options.factories(booted.db) : undefined) as F,
    database,
    app: booted,
    clock: options.clock,
    request: (name, input, requestOptions) => api.request(name, input, requestOptions),
    browser: () => new TestCaller<H>(booted.url, routes, { browser: true }),
    async signIn(first: string | SignInUser, second?: unknown, third?: string) {
      if (typeof first !== 'string') return signInPastSecondFactor(booted, routes, first, (second ?? {}) as SignInOptions);
      return signInWith<H>(booted, routes, first, second as Record<string, unknown>, third ?? '/login');
    },
    passkey: () => new TestPasskey((booted.running.settings['APP_URL'] as URL).origin),
    registerPasskey: (browser, key, options = {}) => registerPasskey(browser, key, options),
    signInWithPasskey: (key, options = {}) => signInWithPasskey(new TestCaller<H>(booted.url, routes, { browser: true }), key, options),
    async withToken(userId, abilities = [], tokenOptions = {}) {
      const tokens = requireService(
        booted.running.services as unknown as Services,
        'apiTokens',
        'tokens()',
        'bindery/testing withToken',
      ) as ApiTokens;
      const { plain } = await tokens.create(String(userId), {
        name: 'test token',
        abilities: [...abilities],
        ...(tokenOptions.lifetimeMs === undefined ? {} : { lifetimeMs: tokenOptions.lifetimeMs }),
      });
      return Object.assign(new TestCaller<H>(booted.url, routes, { headers: { authorization: `Bearer ${plain}` } }), { token: plain });
    },
    async can(user, action, row, askOptions = {}) {
      const policies = policiesOf(booted.running.services, 'bindery/testing can');
      return (await policies.decide(callerAuth(user, askOptions.abilities), action, row as Readonly<Record<string, unknown>> | undefined))
        .allowed;
    },
    scope(user, action, askOptions = {}) {
      const policies = policiesOf(booted.running.services, 'bindery/testing scope');
      return policies.scope(callerAuth(user, askOptions.abilities), action);
    },
    outbox: (to) => readOutbox(booted.db as AnyKysely, to === undefined ? {} : { to }),
    async close() {
      try {
        await booted.close();
      } finally {
        await database.drop();
      }
    },
  };
}
