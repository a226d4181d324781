/**
 * A real HTTP server with the session layer on hand-written routes, for the
 * session, CSRF and round-trip tests: `createHttpServer` through the HTTP
 * test helpers (logs captured), the session manager built from settings
 * loaded like at boot, and a controllable clock.
 */
import { fileURLToPath } from 'node:url';
import { combineSettings } from '../../../../runtime/config/define-settings.js';
import { coreSettings } from '../../../../runtime/config/core-settings.js';
import { generateAppKey } from '../../../../runtime/config/app-key.js';
import { loadSettings } from '../../../../runtime/config/load-settings.js';
import { createCsrfMiddleware } from '../../../../runtime/csrf/csrf-middleware.js';
import type { Database } from '../../../../runtime/db/connect.js';
import type { RouteHandler } from '../../../../runtime/http/handler.js';
import type { Services } from '../../../../runtime/http/context.js';
import { json, noContent, page, respond } from '../../../../runtime/results/result.js';
import { BUILT_IN_DRIVERS, createSessionManager, type SessionManager } from '../../../../runtime/session/session-manager.js';
import { createSessionMiddleware } from '../../../../runtime/session/session-middleware.js';
import { sessionService } from '../../../../runtime/session/session-service.js';
import type { SessionDriver } from '../../../../runtime/session/session-store.js';
import { sessionSettings } from '../../../../runtime/session/settings.js';
import type { RouteDefinition } from '../../../../runtime/routing/route-table.js';
import { field, route } from '../../http/support/routes.js';
import { startServer, type TestServer } from '../../http/support/server.js';

/** A clock the test moves. */
export class Clock {
  constructor(public t = Date.UTC(2025, 0, 1, 12, 0, 0)) {}
  readonly now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

export const VIEWS_DIR = fileURLToPath(new URL('../fixtures/views/', import.meta.url));

const q = (key: string) => field(key, 'string', { query: key });

/** Routes: group `web` has [session]; group `forms` has [session, csrf]. */
export function sessionRoutes(): RouteDefinition[] {
  const web = (name: string, path: string, fields = [q('key'), q('value')], result: RouteDefinition['result'] = 'ok') =>
    route({ name, path, fields, group: 'web', middleware: ['session'], result });
  const forms = (name: string, method: RouteDefinition['method'], path: string, fields: RouteDefinition['fields'] = []) =>
    route({ name, method, path, fields, group: 'forms', middleware: ['session', 'csrf'], result: 'ok' });
  return [
    web('s.none', '/s/none'),
    web('s.get', '/s/get'),
    web('s.put', '/s/put'),
    web('s.flash', '/s/flash'),
    web('s.flashed', '/s/flashed'),
    web('s.regenerate', '/s/regenerate'),
    web('s.invalidate', '/s/invalidate'),
    web('s.login', '/s/login', [q('user')]),
    web('s.whoami', '/s/whoami', []),
    web('s.token', '/s/token', []),
    web('s.nostore', '/s/nostore'),
    web('s.late', '/s/late', [], 'custom'),
    web('s.page', '/s/page', [], 'page'),
    web('s.broken', '/s/broken', [], 'page'),
    web('s.state', '/s/state', []),
    web('s.revokeOthers', '/s/revoke-others', []),
    forms('form.post', 'POST', '/form', [
      field('title', 'string', { json: 'title' }, ['required', 'max:10']),
      field('count', 'integer', { json: 'count' }),
      field('tags', 'string[]', { json: 'tags' }, ['max:3']),
      field('note', 'string', { json: 'note' }),
      field('password', 'string', { json: 'password' }),
      field('api_token', 'string', { json: 'api_token' }),
      field('secret_code', 'string', { json: 'secret_code' }),
    ]),
    forms('csrf.get', 'GET', '/csrf'),
    forms('csrf.options', 'OPTIONS', '/csrf'),
    forms('csrf.post', 'POST', '/csrf'),
    forms('csrf.put', 'PUT', '/csrf'),
    forms('csrf.patch', 'PATCH', '/csrf'),
    forms('csrf.delete', 'DELETE', '/csrf'),
    forms('csrf.upload', 'POST', '/upload', [field('doc', 'file', { form: 'doc' })]),
    route({ name: 'plain.session', path: '/plain/session', group: null, middleware: [] }),
    route({ name: 'plain.page', path: '/plain/page', group: null, middleware: [], result: 'page' }),
    route({ name: 'csrf.only', method: 'POST', path: '/csrf-only', group: null, middleware: ['csrf'] }),
  ];
}

type Input = Record<string, any>;

/** Handlers of {@link sessionRoutes}. */
export function sessionHandlers(): Record<string, RouteHandler<Input, unknown>> {
  return {
    's.none': () => ({}),
    's.get': (i, ctx) => ({ value: ctx.session.get(i.key) ?? null, exists: ctx.session.exists }),
    's.put': (i, ctx) => {
      ctx.session.put(i.key, i.value);
      return { ok: true };
    },
    's.flash': (i, ctx) => {
      ctx.session.flash(i.key, i.value);
      return { ok: true };
    },
    's.flashed': (i, ctx) => ({ value: ctx.session.flashed(i.key) ?? null }),
    's.regenerate': (_i, ctx) => {
      ctx.session.regenerate();
      return { id: ctx.session.id };
    },
    's.invalidate': (_i, ctx) => {
      ctx.session.invalidate();
      return { ok: true };
    },
    's.login': (i, ctx) => {
      ctx.session.regenerate();
      ctx.session.setUser(i.user, `fp-${i.user}`);
      return { id: ctx.session.id };
    },
    's.whoami': (_i, ctx) => ({ user: ctx.session.user, id: ctx.session.id }),
    's.token': (_i, ctx) => ({ token: ctx.session.csrfToken() }),
    's.nostore': (i, ctx) => {
      ctx.session.put(i.key, i.value);
      return json({ ok: true }, 200, { 'cache-control': 'no-store' });
    },
    's.late': (_i, ctx) =>
      respond(async (reply) => {
        await reply.code(200).send({ ok: true });
        ctx.session.put('late', true);
      }),
    's.page': () => page('page', {}),
    's.broken': () => page('broken', {}),
    's.state': (_i, ctx) => ({ errors: ctx.session.errors, old: ctx.session.oldInput }),
    's.revokeOthers': async (_i, ctx) => ({
      ended: (await ctx.services.sessions!.revokeUser(ctx.session.user!.id, ctx.session.id)) ?? null,
    }),
    'form.post': () => ({ ok: true }),
    'csrf.get': () => ({ ok: true }),
    'csrf.options': () => ({ ok: true }),
    'csrf.post': () => noContent(),
    'csrf.put': () => noContent(),
    'csrf.patch': () => noContent(),
    'csrf.delete': () => noContent(),
    'csrf.upload': (i) => ({ size: i.doc?.size ?? null }),
    'plain.session': (_i, ctx) => ({ id: ctx.session.id }),
    'plain.page': () => page('page', {}),
    'csrf.only': () => ({ ok: true }),
  };
}

/** Options of {@link startSessionServer}. */
export interface SessionServerOptions {
  /** Settings over the defaults (`APP_ENV=testing`, a fresh `APP_KEY`). */
  readonly env?: Record<string, string>;
  readonly clock?: Clock;
  readonly database?: Database;
  /** More drivers (by SESSION_DRIVER name). */
  readonly drivers?: Readonly<Record<string, SessionDriver>>;
}

/** A started server with its session manager and settings. */
export interface SessionServer extends TestServer {
  readonly manager: SessionManager;
  readonly settings: Readonly<Record<string, unknown>>;
  /** The APP_KEY in use (`base64:…`). */
  readonly appKey: string;
}

/** Start a server with the session layer (close it with `closeAll()` of the HTTP helpers, and `manager.close()`). */
export async function startSessionServer(options: SessionServerOptions = {}): Promise<SessionServer> {
  // DATABASE_URL is only read by the boot, which this server skips; production requires it to be set.
  const env = { APP_ENV: 'testing', APP_KEY: generateAppKey(), DATABASE_URL: 'postgres://127.0.0.1/unused', ...options.env };
  const drivers = { ...BUILT_IN_DRIVERS, ...options.drivers };
  const settings = loadSettings(combineSettings(coreSettings, sessionSettings(Object.keys(drivers))), env) as Readonly<
    Record<string, unknown>
  >;
  const manager = await createSessionManager({
    settings,
    drivers,
    ...(options.clock ? { now: options.clock.now } : {}),
    ...(options.database ? { database: options.database } : {}),
  });
  const server = await startServer({
    routes: sessionRoutes(),
    handlers: sessionHandlers(),
    middleware: { session: createSessionMiddleware(manager), csrf: createCsrfMiddleware() },
    services: { sessions: sessionService(manager) } as Services,
    environment: settings.APP_ENV as 'testing',
    viewsDir: VIEWS_DIR,
  });
  return { ...server, manager, settings, appKey: env.APP_KEY };
}
