/**
 * Running an app's setup steps in order (docs/boot.md "Setup steps").
 */
import type { SettingsDefinition } from '../config/define-settings.js';
import type { SettingSpecs, SettingsValues } from '../config/setting.js';
import type { Middleware } from '../http/handler.js';
import type { RouteDefinition } from '../routing/route-table.js';
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
 * @throws {SetupError} for a taken middleware or route name; any error a step throws (wrapped with the step's call when it is not already coded).
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
    await step.setup?.(ctx);
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
