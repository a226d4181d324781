/**
 * Running an app's setup steps in order (docs/boot.md "Setup steps").
 */
import type { SettingsDefinition } from '../config/define-settings.js';
import type { SettingSpecs, SettingsValues } from '../config/setting.js';
import type { Middleware } from '../http/handler.js';
import type { RouteDefinition } from '../routing/route-table.js';
import type { Database } from '../db/connect.js';
import { engineTitle } from '../db/migrator/migration-set.js';
import { isCodedError } from '../errors/coded-error.js';
import { SetupError } from './errors.js';
import { KeyRing } from '../crypto/key-ring.js';
import { CursorSealer } from '../crypto/cursor-codec.js';
import type { OpenedApp } from './open-app.js';
import { stepCall, type ReadinessCheck, type SetupContext } from './setup-step.js';
import type { AnyRouteHandler } from '../http/handler.js';
import type { RequestObserver } from '../http/request-observer.js';

/** Everything the steps contributed, merged with the app's own routes and middleware. */
export interface SetupResult {
  readonly routes: RouteDefinition[];
  readonly handlers: Record<string, AnyRouteHandler>;
  readonly middleware: Record<string, Middleware>;
  readonly services: Record<string, unknown>;
  readonly readinessChecks: Map<string, ReadinessCheck>;
  /** A step asked for requests to run inside their execution context. */
  executionContext: boolean;
  /** What observes the requests, when a step asked for it (`ctx.observeRequests`). */
  requestObserver: RequestObserver | undefined;
  /** Shutdown work in the order to run it (reverse of registration). */
  readonly closeHooks: Array<() => void | Promise<void>>;
}

/**
 * Run each step's `setup` in list order, then the route checks they added.
 * @param options.now the clock the steps see as `ctx.now` (default `Date.now`).
 * @throws {SetupError} for a taken middleware or route name; any error a step throws. On MySQL and
 *   MariaDB a step's error names the step and `DATABASE_URL` (see {@link onEngine}).
 */
export async function runSetupSteps(opened: OpenedApp, options: { readonly now?: () => number } = {}): Promise<SetupResult> {
  const now = options.now ?? Date.now;
  const { app } = opened;
  const result: SetupResult = {
    routes: [...app.routes],
    handlers: { ...app.handlers },
    middleware: { ...(app.middleware ?? {}) },
    services: { db: opened.db.database.db, cursors: new CursorSealer(KeyRing.fromSettings(opened.settings.all)) },
    readinessChecks: new Map(),
    executionContext: false,
    requestObserver: undefined,
    closeHooks: [],
  };
  const done = new Set<string>();
  const routeChecks: Array<(routes: RouteDefinition[]) => void> = [];
  for (const step of app.setup) {
    const call = stepCall(step);
    const ctx: SetupContext = {
      app: { name: app.name, root: app.root },
      settings: opened.settings.all,
      givenSettings: opened.settings.given,
      settingsOf: <S extends SettingSpecs>(definition: SettingsDefinition<S>) => {
        const values: Record<string, unknown> = {};
        for (const name of Object.keys(definition.specs)) values[name] = opened.settings.all[name];
        return values as SettingsValues<S>;
      },
      database: opened.db.database,
      log: opened.log,
      services: result.services,
      done,
      now,
      addMiddleware(name, middleware) {
        if (name in result.middleware) throw new SetupError(`${call} adds middleware "${name}", which is already defined.`);
        result.middleware[name] = middleware;
      },
      addRoutes(routes, handlers) {
        for (const route of routes) {
          if (result.routes.some((r) => r.name === route.name))
            throw new SetupError(`${call} adds the route "${route.name}", which is already defined.`);
          result.routes.push(route);
        }
        Object.assign(result.handlers, handlers);
      },
      useExecutionContext() {
        result.executionContext = true;
      },
      observeRequests(observer) {
        if (result.requestObserver !== undefined) throw new SetupError(`${call} observes the requests, which another step already does.`);
        result.requestObserver = observer;
      },
      addRouteCheck(check) {
        routeChecks.push(check);
      },
      addReadinessCheck(name, check) {
        result.readinessChecks.set(name, check);
      },
      onClose(fn) {
        result.closeHooks.unshift(fn);
      },
    };
    try {
      await step.setup?.(ctx);
    } catch (error) {
      throw onEngine(error, call, opened.db.database);
    }
    done.add(step.name);
  }
  try {
    for (const check of routeChecks) check(result.routes);
  } catch (error) {
    // Every step has run: undo what they started before the boot stops.
    for (const hook of result.closeHooks)
      await Promise.resolve()
        .then(hook)
        .catch(() => {});
    throw error;
  }
  return result;
}

/** A subsystem's coded error for an engine it has no strategy for ends in this (`BINDERY_JOBS_ENGINE_UNSUPPORTED`, …). */
const ENGINE_UNSUPPORTED = /_ENGINE_UNSUPPORTED$/;

/**
 * A setup step's error, saying where the engine came from when it is not
 * PostgreSQL (docs/boot.md "Boot sequence"): on MySQL and MariaDB the
 * engine is the one `DATABASE_URL` names, so a subsystem without a strategy
 * for it (`BINDERY_…_ENGINE_UNSUPPORTED`) gets `<step> cannot start on the
 * MariaDB database of DATABASE_URL (<url>): ` before its message — keeping
 * its class and code, which callers and docs/errors.md go by — and an
 * uncoded error (a statement the server refused) becomes a
 * `BINDERY_SETUP_INVALID` naming the step and the setting, with the error
 * as its cause. On PostgreSQL the error is left as it is.
 */
function onEngine(error: unknown, call: string, database: Database): unknown {
  const engine = database.engine.name;
  if (engine === 'postgres' || !(error instanceof Error)) return error;
  const where = `the ${engineTitle(engine)} database of DATABASE_URL (${database.displayUrl})`;
  if (isCodedError(error)) {
    if (!ENGINE_UNSUPPORTED.test(error.code)) return error;
    const message = `${call} cannot start on ${where}: ${error.message}`;
    error.stack = error.stack?.replace(error.message, message);
    error.message = message;
    return error;
  }
  return new SetupError(
    `${call} failed on ${where}: ${error.message}. The step may not run on ${engineTitle(engine)} yet: docs/database.md "MySQL and MariaDB" says what does; run the app on a postgres:// DATABASE_URL, or leave ${call} out of the setup list.`,
    { cause: error },
  );
}
