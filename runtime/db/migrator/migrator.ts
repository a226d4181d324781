/**
 * The migrator: one migrator, one table recording each migration with its
 * source (docs/database.md "Migrations"; plugin migrations: docs/spec.md 9).
 *
 * Table `bindery_migrations (source, name, checksum, applied_at)`, primary
 * key `(source, name)`; the last failure of a file not applied yet is a row
 * of `bindery_migration_failures (source, name, checksum, error, failed_at)`,
 * which `migrate --status` shows and the file's later success removes. The
 * engine's named lock `bindery!` (session level, on the one connection
 * `migrate` holds; a PostgreSQL advisory lock, MySQL's `GET_LOCK`) makes
 * concurrent `migrate` calls — two instances booting at once — run one after
 * the other.
 *
 * This core is the same on every engine; which folder of a set is read is
 * the engine's family (`postgres/` or `mysql/` of a per-engine set;
 * `migration-set.ts`), and how a file is applied and what a failing one
 * leaves behind is the engine's strategy (`strategies/`: PostgreSQL runs
 * each file in one transaction with its record; MySQL and MariaDB run it
 * statement by statement and resume a partly applied file).
 */
import type { DatabaseEngine, EngineConnection, EngineName } from '../engine.js';
import { MigrationChangedError } from './errors.js';
import {
  migrationLabel,
  readMigrationFolder,
  validateMigrationSets,
  type MigrationFile,
  type MigrationFolder,
  type MigrationSet,
} from './migration-set.js';
import { migrationStrategyOf } from './strategies/for-engine.js';
import type { MigrationStrategy, PartlyAppliedMigration } from './strategies/strategy.js';
import { FAILURES_TABLE, MIGRATIONS_TABLE } from './tables.js';

export { FAILURES_TABLE, MIGRATIONS_TABLE } from './tables.js';
export type { PartlyAppliedMigration } from './strategies/strategy.js';

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
  /**
   * Pending files some of whose statements ran and stay applied (MySQL,
   * MariaDB: a file that failed or stopped half-way), in the order of
   * `pending`; those whose applied statements were `edited` since are an
   * error for `migrate`. Always empty on PostgreSQL.
   */
  readonly partial: readonly PartlyAppliedMigration[];
  /** The engine the status is of. */
  readonly engine: EngineName;
  /** The folder read of each set, in set order (a per-engine set's `postgres/` or `mysql/`). */
  readonly folders: readonly MigrationFolder[];
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
  /**
   * Applied / pending / changed / missing / failed / partly applied, without taking the lock.
   * @throws {MigrationEngineMissingError} when a set has no migrations for the engine.
   */
  status(): Promise<MigrationStatus>;
  /** Files not applied yet (readiness probe, `migrate --status`). */
  pending(): Promise<readonly MigrationFile[]>;
  /**
   * Apply every pending migration, set by set in the given order, each file as the engine's strategy
   * applies it (PostgreSQL: in its own transaction, with its record).
   * @throws {MigrationEngineMissingError} before connecting, when a set has no migrations for the engine.
   * @throws {MigrationChangedError} before applying anything, when an applied file changed (or, on MySQL and MariaDB, the applied statements of a partly applied file).
   * @throws {MigrationFailedError} when a file fails (on PostgreSQL it is rolled back; on MySQL and MariaDB its statements before the failing one stay applied, and the next run resumes after them; earlier files stay applied).
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

/** The files of the sets on the engine, and the folder read of each. */
interface SetFiles {
  readonly folders: readonly MigrationFolder[];
  readonly files: readonly MigrationFile[];
}

/**
 * Read every set's folder for the engine.
 * @throws {MigrationEngineMissingError} for a set with no migrations for the engine (before anything runs).
 */
async function readSets(engine: DatabaseEngine, sets: readonly MigrationSet[]): Promise<SetFiles> {
  const read = await Promise.all(sets.map((set) => readMigrationFolder(set, engine.name)));
  return { folders: read.map((r) => r.folder), files: read.flatMap((r) => r.files) };
}

async function computeStatus(
  from: StatusSource,
  strategy: MigrationStrategy,
  sets: readonly MigrationSet[],
  { folders, files }: SetFiles,
): Promise<MigrationStatus> {
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
  const partial = await readPartial(from, strategy, sources, pending);
  const partialKeys = new Set(partial.map(migrationLabel));
  const failures = new Map(
    (await readFailures(from, sources))
      // A partly applied file's row without an error is its progress only: the run stopped, nothing failed.
      .filter((f) => f.error !== '' || !partialKeys.has(migrationLabel(f)))
      .map((f) => [migrationLabel(f), f]),
  );
  const failed = pending.flatMap((p): FailedMigration[] => {
    const f = failures.get(migrationLabel(p));
    return f
      ? [{ source: f.source, name: f.name, error: f.error, failedAt: new Date(f.failed_at), changedSince: f.checksum !== p.checksum }]
      : [];
  });
  const missing = applied.filter((a) => !fileKeys.has(migrationLabel(a)));
  return { applied, pending, changed, missing, failed, partial, engine: from.engine.name, folders };
}

/** The strategy's partly applied files, in the order of `pending` (none where a file runs whole). */
async function readPartial(
  from: StatusSource,
  strategy: MigrationStrategy,
  sources: readonly string[],
  pending: readonly MigrationFile[],
): Promise<PartlyAppliedMigration[]> {
  if (strategy.partlyApplied === undefined) return [];
  const reader = {
    run: from.runner.run.bind(from.runner),
    tableExists: (name: string) => (from.tablesExist ? Promise.resolve(true) : from.engine.tableExists(name)),
  };
  const found = new Map((await strategy.partlyApplied(reader, sources, pending)).map((p) => [migrationLabel(p), p]));
  return pending.flatMap((f) => found.get(migrationLabel(f)) ?? []);
}

/** The error of applied files whose text changed since, and of partly applied files whose applied statements were edited. */
function changedError(status: MigrationStatus): MigrationChangedError {
  const recorded = new Map(status.applied.map((a) => [migrationLabel(a), a]));
  const edited = status.partial.filter((p) => p.edited);
  const paths = new Map(status.pending.map((f) => [migrationLabel(f), f.path]));
  return new MigrationChangedError(
    [...status.changed.map(migrationLabel), ...edited.map(migrationLabel)],
    [
      ...status.changed.map((f) => {
        const a = recorded.get(migrationLabel(f))!;
        return `${f.path}: applied ${a.appliedAt.toISOString()} with checksum ${a.checksum.slice(0, 12)}…, the file now has ${f.checksum.slice(0, 12)}…`;
      }),
      ...edited.map((p) => {
        const ran = p.statementsDone === 1 ? 'statement 1 ran' : `statements 1–${p.statementsDone} ran`;
        const now =
          p.statements < p.statementsDone
            ? `the file now has ${p.statements} statement${p.statements === 1 ? '' : 's'}`
            : `they now have ${p.nowChecksum.slice(0, 12)}…`;
        return `${paths.get(migrationLabel(p))}: ${ran} (stay applied) ${p.since.toISOString()} with checksum ${p.doneChecksum.slice(0, 12)}…, ${now}; restore them as they ran (only the statements after them may change)`;
      }),
    ],
  );
}

/**
 * Create a migrator.
 *
 * @param database the app's `Database` (or its engine); `migrate` holds one connection for its whole run and discards it afterwards (so `SET` statements in migrations never leak into the pool).
 * @param sets migration sets, in the order they run (framework sets, plugins, then `app` is the usual order).
 * @throws {MigrationSetError} for an invalid or duplicated source name.
 * @throws {TypeError} for an engine the migrator has no strategy for (it has PostgreSQL's, MySQL's and MariaDB's).
 * @example
 *   const migrator = createMigrator(database, [{ source: 'app', dir: join(root, 'generated/migrations') }]);
 *   await migrator.migrate({ onProgress: printMigrationProgress(process.stdout) });
 */
export function createMigrator(database: DatabaseEngine | { readonly engine: DatabaseEngine }, sets: readonly MigrationSet[]): Migrator {
  validateMigrationSets(sets);
  const engine = 'engine' in database ? database.engine : database;
  const strategy = migrationStrategyOf(engine);
  const status = async () => computeStatus({ runner: engine, engine, tablesExist: false }, strategy, sets, await readSets(engine, sets));
  return {
    status,
    async pending() {
      return (await status()).pending;
    },
    migrate: (options = {}) => migrate(engine, strategy, sets, options.onProgress ?? (() => {})),
  };
}

/** `Migrator.migrate`: the files, then lock, tables, status, then each pending file by the strategy. */
async function migrate(
  engine: DatabaseEngine,
  strategy: MigrationStrategy,
  sets: readonly MigrationSet[],
  progress: (event: MigrationEvent) => void,
): Promise<MigrateResult> {
  const files = await readSets(engine, sets);
  const connection = await engine.connect();
  let lost = false;
  try {
    if (!(await connection.tryLock(LOCK))) {
      progress({ kind: 'waiting' });
      await connection.lock(LOCK);
    }
    await strategy.ensureTables(connection);
    const status = await computeStatus({ runner: connection, engine, tablesExist: true }, strategy, sets, files);
    if (status.changed.length > 0 || status.partial.some((p) => p.edited)) throw changedError(status);
    const done = new Map(status.partial.map((p) => [migrationLabel(p), p.statementsDone]));
    const applied: { source: string; name: string; ms: number }[] = [];
    for (const file of status.pending) {
      progress({ kind: 'applying', migration: file });
      const started = performance.now();
      const outcome = await strategy.apply(connection, file, done.get(migrationLabel(file)) ?? 0);
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
