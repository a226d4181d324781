/**
 * The contracts of an app and its setup steps (docs/boot.md "Setup steps"):
 * what an app declares, what a step declares, and the context both run in.
 * They name each other (an app lists its steps, a step's commands run with
 * the app in their context), so they live in one module; `define-app.ts`
 * and `setup-step.ts` implement them.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { BaseContext, CommandClass } from 'clipanion';
import type { SettingsDefinition } from '../config/define-settings.js';
import type { SettingSpecs, SettingsValues } from '../config/setting.js';
import type { Database } from '../db/connect.js';
import type { MigrationSet } from '../db/migrator/migration-set.js';
import type { AnyRouteHandler, Middleware } from '../http/handler.js';
import type { RequestObserver } from '../http/request-observer.js';
import type { RouteTable } from '../routing/route-table.js';

/** Clipanion's context (streams, environment, colours) plus the project root. */
export interface BinderyContext extends BaseContext {
  /** The project root: the working directory the CLI was started in. */
  readonly cwd: string;
  /** The app module, when the CLI loaded it to find the app's own commands. */
  app?: App;
}

/** What an app declares. Paths may be relative to `root`. */
export interface AppDefinition {
  /** Lower-case name (`a-z`, digits, `_`, `-`); also the embedded PostgreSQL database's name. */
  readonly name: string;
  /** Project root, absolute: `fileURLToPath(new URL('..', import.meta.url))` from `app/main.ts`. */
  readonly root: string;
  /** The generated route table (`generated/routes.ts`). */
  readonly routes: RouteTable;
  /** One handler per route name. */
  readonly handlers: Readonly<Record<string, AnyRouteHandler>>;
  /** Middleware by the names the YAML groups use. */
  readonly middleware?: Readonly<Record<string, Middleware>>;
  /** Views folder (default none; pages then fail to render). */
  readonly viewsDir?: string;
  /** The app's migration sets, usually `[{ source: 'app', dir: 'generated/migrations' }]`. */
  readonly migrations: readonly MigrationSet[];
  /** Setup steps in order (sessions, auth, audit, jobs, plugins last). */
  readonly setup?: readonly SetupStep[];
  /** The app's own CLI commands (extend `AppCommand`), e.g. `bindery prune`. */
  readonly commands?: readonly CommandClass<BinderyContext>[];
  /**
   * The `Content-Security-Policy` of every response, replacing bindery's
   * strict default (`DEFAULT_CONTENT_SECURITY_POLICY` from `bindery/http`);
   * `false` sends none. The `HTTP_CSP` setting, when set, wins over it.
   * An invalid policy stops the boot. See docs/http.md "Content-Security-Policy".
   */
  readonly contentSecurityPolicy?: string | false;
}

/** A checked app definition, paths made absolute. Create it with {@link defineApp}. */
export interface App extends AppDefinition {
  readonly viewsDir: string | undefined;
  readonly setup: readonly SetupStep[];
  /** Brand telling the CLI the module's default export came from `defineApp`. */
  readonly [APP_BRAND]: true;
}

/** Marks values made by {@link defineApp} (shared across module copies). */
export const APP_BRAND: unique symbol = Symbol.for('bindery.app') as never;

/** A step another step needs, and the call that sets it up (for the error message). */
export interface StepRequirement {
  /** The needed step's `name`, e.g. `cache`. */
  readonly name: string;
  /** How an app sets it up, e.g. `cache()`; named in the error when missing. */
  readonly call: string;
}

/** One setup step. */
export interface SetupStep {
  /** Unique in the app: `cache`, `session`, `auth`, `audit`, `jobs`, `plugin:<name>`. */
  readonly name: string;
  /** How an app writes this step, e.g. `auth()`; used in messages (default `<name>()`). */
  readonly call?: string;
  /** Steps that must come earlier in the list. */
  readonly requires?: readonly StepRequirement[];
  /** Settings of the step, loaded and checked with the core settings. */
  readonly settings?: SettingsDefinition<SettingSpecs>;
  /** Migration sets of the step (source = the set's name, e.g. `auth`, or the plugin's name); they run after the app's. */
  readonly migrations?: readonly MigrationSet[];
  /**
   * CLI commands the step adds (`bindery audit:prune`, a plugin's `<name>:…`).
   * They are registered when the CLI is asked for a command it does not know,
   * after loading the app module; extend `AppCommand` to use the booted app.
   */
  readonly commands?: readonly CommandClass<BinderyContext>[];
  /** Boot work, run in list order once settings are loaded and the database is open, before the HTTP server is built. */
  readonly setup?: (ctx: SetupContext) => void | Promise<void>;
}

/** A readiness check: resolves to `'ok'` or a short reason it is not ready (the probe shows it). */
export type ReadinessCheck = () => Promise<string>;

/** What a setup step may read and add to at boot. */
export interface SetupContext {
  /** The app's name and root (absolute). */
  readonly app: { readonly name: string; readonly root: string };
  /** Every loaded setting, by name. */
  readonly settings: Readonly<Record<string, unknown>>;
  /**
   * The names of the settings given a value (in the environment or `.env`);
   * the others took their defaults. For warnings about a value the operator
   * chose, never about a default (docs/settings.md).
   */
  readonly givenSettings: ReadonlySet<string>;
  /** The typed values of one settings declaration (the step's own, usually). */
  settingsOf<S extends SettingSpecs>(definition: SettingsDefinition<S>): SettingsValues<S>;
  /** The open database. */
  readonly database: Database;
  /** The app logger. */
  readonly log: FastifyBaseLogger;
  /** Services handed to handlers as `ctx.services`; add members here (`db` is already set). */
  readonly services: Record<string, unknown>;
  /** Names of the steps already set up (earlier in the list). */
  readonly done: ReadonlySet<string>;
  /**
   * The app's clock, milliseconds since the epoch: `Date.now`, or the clock
   * the app was started with (the test kit's, docs/testing.md#time). Steps
   * with expiries and throttles read time from it unless given their own `now`.
   */
  readonly now: () => number;
  /**
   * Add middleware usable by name in the YAML `groups:`.
   * @throws {SetupError} when the name is taken.
   */
  addMiddleware(name: string, middleware: Middleware): void;
  /**
   * Add routes and their handlers (plugins).
   * @throws {SetupError} when a route name is taken.
   */
  addRoutes(routes: RouteTable, handlers: Readonly<Record<string, AnyRouteHandler>>): void;
  /**
   * Ask for every request to run inside its execution context (actor, via,
   * request ID; runtime/context). Steps that attribute work to the actor —
   * audit, jobs — call this; it costs every request on Node 20, so it is off
   * unless a step needs it.
   */
  useExecutionContext(): void;
  /**
   * Have every request of the HTTP server told to `observer` (traces,
   * metrics, the access log; docs/observability.md). One per app.
   * @throws {SetupError} when another step already observes the requests.
   */
  observeRequests(observer: RequestObserver): void;
  /**
   * Check the app's whole route table once every step has run (so routes
   * plugins add later are included); `check` throws to stop the boot, e.g.
   * auth() refusing a guarded route without its auth middleware (docs/spec.md 7 rule 9).
   */
  addRouteCheck(check: (routes: RouteTable) => void): void;
  /** Add a check to `GET /health/ready`. */
  addReadinessCheck(name: string, check: ReadinessCheck): void;
  /** Run `fn` at shutdown, after the HTTP server closed and before the database closes (reverse order of registration). */
  onClose(fn: () => void | Promise<void>): void;
}
