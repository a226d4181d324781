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
import { checkPolicy } from '../config/content-security-policy.js';
import { AppDefinitionError, SetupError } from './errors.js';
import { stepCall } from './setup-step.js';
import type { CommandClass } from 'clipanion';
import { APP_BRAND, type App, type AppDefinition, type BinderyContext, type SetupStep } from './app-contract.js';

export { APP_BRAND, type App, type AppDefinition, type BinderyContext } from './app-contract.js';

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

/** Every migration set of the app: its own, then each setup step's in setup order (named for messages by the step's call, e.g. `audit()`). */
export function appMigrationSets(app: App): MigrationSet[] {
  return [
    ...app.migrations,
    ...app.setup.flatMap((s) =>
      (s.migrations ?? []).map((m) => ({ source: m.source, dir: resolve(app.root, m.dir), addedBy: m.addedBy ?? stepCall(s) })),
    ),
  ];
}
