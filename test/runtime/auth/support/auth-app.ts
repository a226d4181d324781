/**
 * A small app for the auth runtime tests: `cache()`, `session()`,
 * `auth({ users })`, `jobs()` and `events()` set up like an app would, on
 * hand-written routes, with an in-memory user provider whose optional
 * lookups a test can remove, a controllable clock, and a listener keeping
 * every auth event.
 */
import { fileURLToPath } from 'node:url';
import { defineApp, type App } from '../../../../runtime/app/index.js';
import { auth, PasswordHasher, type UserProvider } from '../../../../runtime/auth/index.js';
import { GUEST } from '../../../../runtime/context/request-auth.js';
import { cache } from '../../../../runtime/cache/index.js';
import { defineListener, events } from '../../../../runtime/events/index.js';
import type { Middleware, RouteHandler } from '../../../../runtime/http/handler.js';
import { jobs } from '../../../../runtime/jobs/index.js';
import { json } from '../../../../runtime/results/result.js';
import type { RouteDefinition } from '../../../../runtime/routing/route-table.js';
import { session } from '../../../../runtime/session/index.js';
import { field, route } from '../../http/support/routes.js';

/** A user of the in-memory provider. */
export interface MemoryUser {
  readonly id: number;
  email: string;
  password: string;
  rememberToken: string | null;
}

/** A clock the test moves. */
export class Clock {
  t = Date.UTC(2025, 0, 1, 12, 0, 0);
  readonly now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

/** Low-cost hashes for tests that are not about cost. */
export const FAST_ARGON2 = { memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

/** The in-memory users, with call counts. */
export class MemoryUsers {
  readonly byId = new Map<number, MemoryUser>();
  readonly calls = { findById: 0, findByLogin: 0, passwordHashOf: 0 };
  /** Called inside findById (a test makes it ask for the current user). */
  onFindById: (() => Promise<void>) | undefined;
  #next = 1;

  async add(email: string, password: string, hash?: string): Promise<MemoryUser> {
    const user: MemoryUser = {
      id: this.#next++,
      email: email.toLowerCase(),
      password: hash ?? (await new PasswordHasher({ params: FAST_ARGON2 }).hash(password)),
      rememberToken: null,
    };
    this.byId.set(user.id, user);
    return user;
  }

  /** The provider (its optional members can be deleted by a test and restored with {@link provider} again). */
  readonly provider: UserProvider<MemoryUser> = this.fullProvider();

  fullProvider(): UserProvider<MemoryUser> {
    return {
      idOf: (u) => String(u.id),
      passwordHashOf: (u) => {
        this.calls.passwordHashOf++;
        return u.password;
      },
      findById: async (id) => {
        this.calls.findById++;
        await this.onFindById?.();
        return /^[1-9]\d*$/.test(id) ? (this.byId.get(Number(id)) ?? null) : null;
      },
      findByLogin: async (login) => {
        this.calls.findByLogin++;
        const email = login.trim().toLowerCase();
        return [...this.byId.values()].find((u) => u.email === email) ?? null;
      },
      readRememberToken: async (u) => u.rememberToken,
      writeRememberToken: async (u, token) => {
        u.rememberToken = token;
      },
      writePasswordHash: async (u, hash) => {
        u.password = hash;
      },
    };
  }

  /** Put back every optional lookup. */
  restore(): void {
    Object.assign(this.provider, this.fullProvider());
  }
}

/** Events the listener saw, in order. */
export const seen: Array<{ event: string; payload: any }> = [];

const listeners = ['session:login_succeeded', 'session:login_failed', 'session:logout'].map((event) =>
  defineListener({
    name: `test:keep_${event.split(':')[1]}`,
    event: event as 'session:login_succeeded',
    handle: (payload) => {
      seen.push({ event, payload });
    },
  }),
);

const SESSION = ['session', 'csrf', 'auth'];

/** The routes of the test app. */
export function authRoutes(): RouteDefinition[] {
  return [
    route({ name: 'token', path: '/token', middleware: ['session', 'csrf'] }),
    route({
      name: 'login',
      method: 'POST',
      path: '/login',
      middleware: [...SESSION, 'guest'],
      fields: [
        field('email', 'string', { json: 'email' }, ['required']),
        field('password', 'string', { json: 'password' }, ['required']),
        field('remember', 'boolean', { json: 'remember' }, [], false),
      ],
    }),
    route({
      name: 'direct',
      method: 'POST',
      path: '/direct',
      middleware: ['session', 'csrf'],
      fields: [field('id', 'string', { json: 'id' }, ['required']), field('remember', 'boolean', { json: 'remember' }, [], false)],
    }),
    route({ name: 'me', path: '/me', middleware: [...SESSION, 'require'] }),
    route({ name: 'whoami', path: '/whoami', middleware: SESSION }),
    route({ name: 'idOnly', path: '/id-only', middleware: SESSION }),
    route({ name: 'loop', path: '/loop', middleware: SESSION }),
    route({ name: 'logout', method: 'POST', path: '/logout', middleware: [...SESSION, 'require'] }),
    route({
      name: 'everywhere',
      method: 'POST',
      path: '/everywhere',
      middleware: [...SESSION, 'require'],
      fields: [field('password', 'string', { json: 'password' }, ['required'])],
    }),
    route({ name: 'api', path: '/api', middleware: ['token', 'require'] }),
    route({ name: 'reversed', path: '/reversed', middleware: ['auth', 'session', 'csrf', 'require'] }),
    route({ name: 'guestOnly', path: '/guest-only', middleware: [...SESSION, 'guest'] }),
  ];
}

type H = RouteHandler<any, any>;

/** The handlers of {@link authRoutes}. */
export function authHandlers(users: MemoryUsers): Record<string, H> {
  return {
    token: (_i, ctx) => ({ token: ctx.session.csrfToken() }),
    login: async (input, ctx) => {
      const user = await ctx.services.auth!.attempt(ctx, input.email, input.password, { remember: input.remember });
      return { id: user.id, next: ctx.services.auth!.intendedUrl(ctx) };
    },
    direct: async (input, ctx) => {
      await ctx.services.auth!.login(ctx, users.byId.get(Number(input.id))!, { remember: input.remember });
      return { ok: true };
    },
    me: async (_i, ctx) => ({ id: ctx.auth.id, via: ctx.auth.via, email: ((await ctx.auth.user()) as MemoryUser).email }),
    whoami: async (_i, ctx) => ({
      id: ctx.auth.id,
      via: ctx.auth.via,
      user: ((await ctx.auth.user()) as MemoryUser | null)?.email ?? null,
      guest: ctx.auth === GUEST,
    }),
    logout: async (_i, ctx) => {
      await ctx.services.auth!.logout(ctx);
      return { ok: true };
    },
    everywhere: async (input, ctx) => {
      const user = (await ctx.auth.user()) as MemoryUser;
      user.password = await ctx.services.auth!.hashPassword(input.password);
      await ctx.services.auth!.signOutEverywhere(user, { except: ctx });
      return { ok: true };
    },
    idOnly: (_i, ctx) => ({ id: ctx.auth.id }),
    loop: async (_i, ctx) => {
      users.onFindById = async () => {
        await ctx.auth.user();
      };
      try {
        await ctx.auth.user();
        return { code: null };
      } catch (error) {
        return { code: (error as { code?: string }).code };
      } finally {
        users.onFindById = undefined;
      }
    },
    api: (_i, ctx) => json({ id: ctx.auth.id }),
    reversed: () => ({ ok: true }),
    guestOnly: () => ({ ok: true }),
  };
}

/** A `token` middleware stand-in: leaves the request a guest. */
const guestToken: Middleware = (_ctx, next) => next();

/** The test app over `users`, with `clock` for the cache, the session and auth. */
export function authApp(users: MemoryUsers, clock: Clock, extra: { routes?: RouteDefinition[]; handlers?: Record<string, H> } = {}): App {
  return defineApp({
    name: 'authtest',
    root: fileURLToPath(new URL('.', import.meta.url)),
    routes: [...authRoutes(), ...(extra.routes ?? [])],
    handlers: { ...authHandlers(users), ...extra.handlers },
    middleware: { token: guestToken },
    migrations: [],
    setup: [
      cache({ now: clock.now }),
      session({ now: clock.now }),
      auth({ users: users.provider, argon2: FAST_ARGON2, now: clock.now }),
      jobs(),
      events({ listeners }),
    ],
  });
}
