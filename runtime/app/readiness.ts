/**
 * The readiness probe behind `GET /health/ready` (database reachable, no
 * pending migrations; docs/boot.md "Health").
 */
import type { Database } from '../db/connect.js';
import { migrationLabel } from '../db/migrator/migration-set.js';
import type { Migrator } from '../db/migrator/migrator.js';
import type { ReadinessReport } from '../http/server-options.js';
import type { ReadinessCheck } from './setup-step.js';

const TIMEOUT_MS = 5000;

async function withTimeout(check: ReadinessCheck): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      check(),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`no answer within ${TIMEOUT_MS} ms`), TIMEOUT_MS);
      }),
    ]);
  } catch (error) {
    return `error: ${(error as Error).message}`;
  } finally {
    clearTimeout(timer);
  }
}

/** Why the database refuses writes (a standby, a read-only setting), or `undefined` when it takes them. */
function readOnlyReason(database: Database): Promise<string | undefined> {
  return database.engine.readOnlyReason();
}

/**
 * Build the probe: `database` (`select 1`, and not read-only: `engine.readOnlyReason()`), `migrations` (`ok`, `2 pending`,
 * or the changed files, with the partly applied files whose applied statements were edited), then the checks added by setup steps. Ready when
 * every check says `ok`. Each check has 5 s.
 */
export function createReadiness(
  database: Database,
  migrator: Migrator,
  extra: ReadonlyMap<string, ReadinessCheck>,
): () => Promise<ReadinessReport> {
  const checks = new Map<string, ReadinessCheck>([
    [
      'database',
      async () => {
        await database.ping();
        return (await readOnlyReason(database)) ?? 'ok';
      },
    ],
    [
      'migrations',
      async () => {
        const s = await migrator.status();
        const changed = [...s.changed, ...s.partial.filter((p) => p.edited)];
        if (changed.length > 0) return `changed after being applied: ${changed.map(migrationLabel).join(', ')}`;
        return s.pending.length === 0 ? 'ok' : `${s.pending.length} pending`;
      },
    ],
    ...extra,
  ]);
  return async () => {
    const results: Record<string, string> = {};
    for (const [name, check] of checks) {
      results[name] = name === 'migrations' && results.database !== 'ok' ? 'unknown (database unreachable)' : await withTimeout(check);
    }
    return { ok: Object.values(results).every((r) => r === 'ok'), checks: results };
  };
}
