/**
 * The migrator: one migrator, one table recording each migration with its
 * source (docs/database.md "Migrations"; plugin migrations: docs/spec.md 9).
 *
 * Table `bindery_migrations (source, name, checksum, applied_at)`, primary
 * key `(source, name)`; the last failure of a file not applied yet is a row
 * of `bindery_migration_failures (source, name, checksum, error, failed_at)`,
 * which `migrate --status` shows and the file's later success removes. The
 * engine's named lock `bindery!` (session level, on the one connection
 * `migrate` holds; a PostgreSQL advisory lock) makes concurrent `migrate`
 * calls — two instances booting at once — run one after the other.
 *
 * This core is the same on every engine; how a file is applied and what a
 * failing one leaves behind is the engine's strategy (`strategies/`:
 * PostgreSQL runs each file in one transaction with its record).
 */
import type { DatabaseEngine, EngineConnection } from '../engine.js';
import { MigrationChangedError } from './errors.js';
import { migrationLabel, readMigrationSet, validateMigrationSets, type MigrationFile, type MigrationSet } from './migration-set.js';
import { migrationStrategyOf } from './strategies/for-engine.js';
import type { MigrationStrategy } from './strategies/strategy.js';
import { FAILURES_TABLE, MIGRATIONS_TABLE } from './tables.js';

export { FAILURES_TABLE, MIGRATIONS_TABLE } from './tables.js';

/** The engine's named lock that one `migrate` at a time holds (on PostgreSQL the advisory lock keyed by these 8 bytes). */
const LOCK = 'bindery!';

/** A row of the migrations table. */
export interface AppliedMigration {
  readonly source: string;
  readonly name: string;
  readonly checksum: string;
  readonly appliedAt: Date;
}

/** The last failure of a migration that is still pending. */
export interface FailedMigration {
  readonly source: string;
  readonly name: string;
  /** The database's error, as the failing run reported it (on PostgreSQL with its SQLSTATE, detail and hint). */
  readonly error: string;
  readonly failedAt: Date;
  /** The file changed since it failed (it may pass now). */
  readonly changedSince: boolean;
}

/** What is applied, pending, changed or missing, for the given sets only. */
export interface MigrationStatus {
  /** Recorded migrations of the given sources, in apply order. */
  readonly applied: readonly AppliedMigration[];
  /** Files not applied yet, in the order they would run. */
  readonly pending: readonly MigrationFile[];
  /** Applied files whose text changed since (an error for `migrate`). */
  readonly changed: readonly MigrationFile[];
  /** Recorded migrations whose file is gone. Reported, never an error. */
  readonly missing: readonly AppliedMigration[];
  /** Pending files whose last `migrate` failed, in the order of `pending`. */
  readonly failed: readonly FailedMigration[];
}

/** Progress of `migrate`, for printing. */
export type MigrationEvent =
  | { readonly kind: 'waiting' }
  | { readonly kind: 'applying'; readonly migration: MigrationFile }
  | { readonly kind: 'applied'; readonly migration: MigrationFile; readonly ms: number };

/** The result of `migrate`. */
export interface MigrateResult {
  /** Migrations applied by this call, in order, with their duration in milliseconds. */
  readonly applied: ReadonlyArray<{ readonly source: string; readonly name: string; readonly ms: number }>;
}

/** Migrator over a set of migration sets. */
export interface Migrator {
  /** Applied / pending / changed / missing, without taking the lock. */
  status(): Promise<MigrationStatus>;
  /** Files not applied yet (readiness probe, `migrate --status`). */
  pending(): Promise<readonly MigrationFile[]>;
  /**
   * Apply every pending migration, set by set in the given order, each file as the engine's strategy
   * applies it (PostgreSQL: in its own transaction, with its record).
   * @throws {MigrationChangedError} before applying anything, when an applied file changed.
   * @throws {MigrationFailedError} when a file fails (on PostgreSQL it is rolled back; earlier files stay applied).
   */
  migrate(options?: { readonly onProgress?: (event: MigrationEvent) => void }): Promise<MigrateResult>;
}

/** Something that runs a statement: the engine (its pool) or the connection `migrate` holds. */
type Runner = Pick<EngineConnection, 'run'>;

/** `$1, $2, …` or `?, ?, …`: `count` parameters in the engine's placeholder style. */
function parameterList(style: DatabaseEngine['placeholder'], count: number): string {
  return Array.from({ length: count }, (_, i) => (style === '?' ? '?' : `$${i + 1}`)).join(', ');
}

/** Where `computeStatus` reads: a runner, the engine (its placeholders, `tableExists`), and whether the tables are known to exist (inside `migrate`). */
interface StatusSource {
  readonly runner: Runner;
  readonly engine: DatabaseEngine;
  readonly tablesExist: boolean;
}

async function readFailures(
  from: StatusSource,
  sources: readonly string[],
): Promise<{ source: string; name: string; checksum: string; error: string; failed_at: Date }[]> {
  if (sources.length === 0 || !(from.tablesExist || (await from.engine.tableExists(FAILURES_TABLE)))) return [];
  const r = await from.runner.run<{ source: string; name: string; checksum: string; error: string; failed_at: Date }>(
    `select source, name, checksum, error, failed_at from ${FAILURES_TABLE} where source in (${parameterList(from.engine.placeholder, sources.length)})`,
    sources,
  );
  return r.rows;
}

async function readApplied(from: StatusSource, sources: readonly string[]): Promise<AppliedMigration[]> {
  if (sources.length === 0 || !(from.tablesExist || (await from.engine.tableExists(MIGRATIONS_TABLE)))) return [];
  const r = await from.runner.run<{ source: string; name: string; checksum: string; applied_at: Date }>(
    `select source, name, checksum, applied_at from ${MIGRATIONS_TABLE} where source in (${parameterList(from.engine.placeholder, sources.length)}) order by applied_at, source, name`,
    sources,
  );
  return r.rows.map((row) => ({ source: row.source, name: row.name, checksum: row.checksum, appliedAt: new Date(row.applied_at) }));
}

async function computeStatus(from: StatusSource, sets: readonly MigrationSet[]): Promise<MigrationStatus> {
  const files = (await Promise.all(sets.map(readMigrationSet))).flat();
  const sources = sets.map((s) => s.source);
  const applied = await readApplied(from, sources);
  const byKey = new Map(applied.map((a) => [migrationLabel(a), a]));
  const fileKeys = new Set(files.map(migrationLabel));
  const pending: MigrationFile[] = [];
  const changed: MigrationFile[] = [];
  for (const f of files) {
    const a = byKey.get(migrationLabel(f));
    if (!a) pending.push(f);
    else if (a.checksum !== f.checksum) changed.push(f);
  }
  const failures = new Map((await readFailures(from, sources)).map((f) => [migrationLabel(f), f]));
  const failed = pending.flatMap((p): FailedMigration[] => {
    const f = failures.get(migrationLabel(p));
    return f
      ? [{ source: f.source, name: f.name, error: f.error, failedAt: new Date(f.failed_at), changedSince: f.checksum !== p.checksum }]
      : [];
  });
  return { applied, pending, changed, missing: applied.filter((a) => !fileKeys.has(migrationLabel(a))), failed };
}

/** The error of applied files whose text changed since. */
function changedError(status: MigrationStatus): MigrationChangedError {
  const recorded = new Map(status.applied.map((a) => [migrationLabel(a), a]));
  return new MigrationChangedError(
    status.changed.map(migrationLabel),
    status.changed.map((f) => {
      const a = recorded.get(migrationLabel(f))!;
      return `${f.path}: applied ${a.appliedAt.toISOString()} with checksum ${a.checksum.slice(0, 12)}…, the file now has ${f.checksum.slice(0, 12)}…`;
    }),
  );
}

/**
 * Create a migrator.
 *
 * @param database the app's `Database` (or its engine); `migrate` holds one connection for its whole run and discards it afterwards (so `SET` statements in migrations never leak into the pool).
 * @param sets migration sets, in the order they run (framework sets, plugins, then `app` is the usual order).
 * @throws {MigrationSetError} for an invalid or duplicated source name.
 * @throws {TypeError} for an engine the migrator has no strategy for (only PostgreSQL has one).
 * @example
 *   const migrator = createMigrator(database, [{ source: 'app', dir: join(root, 'generated/migrations') }]);
 *   await migrator.migrate({ onProgress: printMigrationProgress(process.stdout) });
 */
export function createMigrator(database: DatabaseEngine | { readonly engine: DatabaseEngine }, sets: readonly MigrationSet[]): Migrator {
  validateMigrationSets(sets);
  const engine = 'engine' in database ? database.engine : database;
  const strategy = migrationStrategyOf(engine);
  const status = () => computeStatus({ runner: engine, engine, tablesExist: false }, sets);
  return {
    status,
    async pending() {
      return (await status()).pending;
    },
    migrate: (options = {}) => migrate(engine, strategy, sets, options.onProgress ?? (() => {})),
  };
}

/** `Migrator.migrate`: lock, tables, status, then each pending file by the strategy. */
async function migrate(
  engine: DatabaseEngine,
  strategy: MigrationStrategy,
  sets: readonly MigrationSet[],
  progress: (event: MigrationEvent) => void,
): Promise<MigrateResult> {
  const connection = await engine.connect();
  let lost = false;
  try {
    if (!(await connection.tryLock(LOCK))) {
      progress({ kind: 'waiting' });
      await connection.lock(LOCK);
    }
    await strategy.ensureTables(connection);
    const status = await computeStatus({ runner: connection, engine, tablesExist: true }, sets);
    if (status.changed.length > 0) throw changedError(status);
    const applied: { source: string; name: string; ms: number }[] = [];
    for (const file of status.pending) {
      progress({ kind: 'applying', migration: file });
      const started = performance.now();
      const outcome = await strategy.apply(connection, file);
      if (!outcome.applied) {
        lost = outcome.connectionLost;
        throw outcome.error;
      }
      const ms = Math.round(performance.now() - started);
      applied.push({ source: file.source, name: file.name, ms });
      progress({ kind: 'applied', migration: file, ms });
    }
    return { applied };
  } finally {
    if (!lost) await connection.unlock(LOCK).catch(() => {});
    connection.release(true);
  }
}
