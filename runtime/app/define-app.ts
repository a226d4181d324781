/**
 * Declaring an app (docs/boot.md; ARCHITECTURE.md "Setup steps").
 *
 * `app/main.ts` default-exports `defineApp({...})`; the CLI (`bindery
 * serve`, `start`, `migrate`) imports it, and tests boot it with
 * `createTestApp`.
 */
import { isAbsolute, resolve } from 'node:path';
import type { MigrationSet } from '../db/migrator/migration-set.js';
import { validateMigrationSets } from '../db/migrator/migration-set.js';
import type { Middleware } from '../http/handler.js';
import type { RouteTable } from '../routing/route-table.js';
import { checkPolicy } from '../config/content-security-policy.js';
import { AppDefinitionError, SetupError } from './errors.js';
import { stepCall, type SetupStep } from './setup-step.js';
import type { CommandClass } from 'clipanion';
import type { BaseContext } from 'clipanion';
import type { AnyRouteHandler } from '../http/handler.js';

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

const NAME = /^[a-z][a-z0-9_-]*$/;

/** Check the order of setup steps: unique names, every requirement earlier in the list. */
function checkSteps(steps: readonly SetupStep[]): void {
  const seen = new Set<string>();
  for (const step of steps) {
    if (seen.has(step.name)) throw new SetupError(`${stepCall(step)} is set up twice in this app; keep one.`);
    for (const need of step.requires ?? []) {
      if (!seen.has(need.name)) {
        const later = steps.some((s) => s.name === need.name);
        throw new SetupError(
          `${stepCall(step)} needs ${need.call} set up before it: ${later ? `move ${need.call} before ${stepCall(step)}` : `add ${need.call} before ${stepCall(step)}`} in the setup list of app/main.ts.`,
        );
      }
    }
    seen.add(step.name);
  }
}

/**
 * Check an app definition and make its paths absolute.
 *
 * @returns the {@link App} to default-export from `app/main.ts`.
 * @throws {AppDefinitionError} for a bad name, a relative root or an invalid `contentSecurityPolicy`.
 * @throws {SetupError} for a duplicated step or a step listed before one it needs.
 * @throws {MigrationSetError} for an invalid or duplicated migration source.
 * @example
 *   export default defineApp({
 *     name: 'notes',
 *     root: fileURLToPath(new URL('..', import.meta.url)),
 *     routes, handlers,
 *     viewsDir: 'app/views',
 *     migrations: [{ source: 'app', dir: 'generated/migrations' }],
 *   });
 */
export function defineApp(definition: AppDefinition): App {
  if (!NAME.test(definition.name)) {
    throw new AppDefinitionError(
      `App name ${JSON.stringify(definition.name)} is invalid: use lower-case letters, digits, "_" or "-", starting with a letter.`,
    );
  }
  if (!isAbsolute(definition.root)) throw new AppDefinitionError(`App root ${JSON.stringify(definition.root)} must be an absolute path.`);
  if (typeof definition.contentSecurityPolicy === 'string') {
    const checked = checkPolicy(definition.contentSecurityPolicy);
    if (!checked.ok) throw new AppDefinitionError(`contentSecurityPolicy is not a valid Content-Security-Policy: ${checked.message}.`);
  }
  const abs = (p: string) => resolve(definition.root, p);
  const setup = definition.setup ?? [];
  checkSteps(setup);
  const migrations = definition.migrations.map((m) => ({ source: m.source, dir: abs(m.dir) }));
  validateMigrationSets([...migrations, ...setup.flatMap((s) => s.migrations ?? [])]);
  return Object.freeze({
    ...definition,
    viewsDir: definition.viewsDir === undefined ? undefined : abs(definition.viewsDir),
    migrations,
    setup,
    [APP_BRAND]: true as const,
  });
}

/** True when `value` was made by {@link defineApp}. */
export function isApp(value: unknown): value is App {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[APP_BRAND] === true;
}

/** Every command the app and its setup steps add to the CLI, in setup order (the app's own first). */
export function appCommands(app: App): CommandClass<BinderyContext>[] {
  return [...(app.commands ?? []), ...app.setup.flatMap((s) => s.commands ?? [])];
}

/** Every migration set of the app: its own, then each setup step's in setup order. */
export function appMigrationSets(app: App): MigrationSet[] {
  return [
    ...app.migrations,
    ...app.setup.flatMap((s) => (s.migrations ?? []).map((m) => ({ source: m.source, dir: resolve(app.root, m.dir) }))),
  ];
}
