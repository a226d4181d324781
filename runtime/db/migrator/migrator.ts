/**
 * The migrator: one migrator, one table recording each migration with its
 * source (docs/database.md; plugin migrations: docs/spec.md 9).
 *
 * Table `bindery_migrations (source, name, checksum, applied_at)`, primary
 * key `(source, name)`. Every file runs in its own transaction together with
 * its record, so a failing file leaves nothing behind but a row in
 * `bindery_migration_failures (source, name, checksum, error, failed_at)`,
 * which `migrate --status` shows and the file's later success removes. A PostgreSQL advisory
 * lock (session level, on one connection) makes concurrent `migrate` calls —
 * two instances booting at once — run one after the other.
 */
import type pg from 'pg';
import { MigrationChangedError, MigrationFailedError } from './errors.js';
import { migrationLabel, readMigrationSet, validateMigrationSets, type MigrationFile, type MigrationSet } from './migration-set.js';

/** Name of the table recording applied migrations. */
export const MIGRATIONS_TABLE = 'bindery_migrations';

/** Name of the table recording the last failure of each migration not applied yet. */
export const FAILURES_TABLE = 'bindery_migration_failures';

/** Advisory lock key: the bytes of "bindery!" as a signed 64-bit integer. */
const LOCK_KEY = Buffer.from('bindery!').readBigInt64BE().toString();

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
  /** The PostgreSQL error, as the failing run reported it. */
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
   * Apply every pending migration, set by set in the given order, each file in its own transaction.
   * @throws {MigrationChangedError} before applying anything, when an applied file changed.
   * @throws {MigrationFailedError} when a file fails (it is rolled back; earlier files stay applied).
   */
  migrate(options?: { readonly onProgress?: (event: MigrationEvent) => void }): Promise<MigrateResult>;
}

async function tableExists(q: pg.Pool | pg.PoolClient, table: string = MIGRATIONS_TABLE): Promise<boolean> {
  const r = await q.query<{ t: string | null }>('select to_regclass($1)::text as t', [table]);
  return r.rows[0]?.t != null;
}

async function readFailures(
  q: pg.Pool | pg.PoolClient,
  sources: readonly string[],
): Promise<{ source: string; name: string; checksum: string; error: string; failed_at: Date }[]> {
  if (!(await tableExists(q, FAILURES_TABLE))) return [];
  const r = await q.query<{ source: string; name: string; checksum: string; error: string; failed_at: Date }>(
    `select source, name, checksum, error, failed_at from ${FAILURES_TABLE} where source = any($1::text[])`,
    [sources],
  );
  return r.rows;
}

async function readApplied(q: pg.Pool | pg.PoolClient, sources: readonly string[]): Promise<AppliedMigration[]> {
  if (!(await tableExists(q))) return [];
  const r = await q.query<{ source: string; name: string; checksum: string; applied_at: Date }>(
    `select source, name, checksum, applied_at from ${MIGRATIONS_TABLE} where source = any($1::text[]) order by applied_at, source, name`,
    [sources],
  );
  return r.rows.map((row) => ({ source: row.source, name: row.name, checksum: row.checksum, appliedAt: row.applied_at }));
}

async function computeStatus(q: pg.Pool | pg.PoolClient, sets: readonly MigrationSet[]): Promise<MigrationStatus> {
  const files = (await Promise.all(sets.map(readMigrationSet))).flat();
  const applied = await readApplied(
    q,
    sets.map((s) => s.source),
  );
  const byKey = new Map(applied.map((a) => [migrationLabel(a), a]));
  const fileKeys = new Set(files.map(migrationLabel));
  const pending: MigrationFile[] = [];
  const changed: MigrationFile[] = [];
  for (const f of files) {
    const a = byKey.get(migrationLabel(f));
    if (!a) pending.push(f);
    else if (a.checksum !== f.checksum) changed.push(f);
  }
  const failures = new Map(
    (
      await readFailures(
        q,
        sets.map((s) => s.source),
      )
    ).map((f) => [migrationLabel(f), f]),
  );
  const failed = pending.flatMap((p): FailedMigration[] => {
    const f = failures.get(migrationLabel(p));
    return f ? [{ source: f.source, name: f.name, error: f.error, failedAt: f.failed_at, changedSince: f.checksum !== p.checksum }] : [];
  });
  return { applied, pending, changed, missing: applied.filter((a) => !fileKeys.has(migrationLabel(a))), failed };
}

/** Record (or replace) the last failure of `file`, outside any transaction. */
async function recordFailure(client: pg.PoolClient, file: MigrationFile, reason: string): Promise<void> {
  await client.query(
    `insert into ${FAILURES_TABLE} (source, name, checksum, error) values ($1, $2, $3, $4)
     on conflict (source, name) do update set checksum = excluded.checksum, error = excluded.error, failed_at = now()`,
    [file.source, file.name, file.checksum, reason],
  );
}

/** 1-based line of a 1-based character position in `text`. */
function lineAt(text: string, position: number): number {
  let line = 1;
  for (let i = 0; i < position - 1 && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function failure(file: MigrationFile, error: unknown): MigrationFailedError {
  const e = error as { message?: string; position?: string; detail?: string; hint?: string; code?: string };
  const line = e.position ? lineAt(file.sql, Number(e.position)) : undefined;
  let reason = e.message ?? String(error);
  if (e.code) reason += ` (SQLSTATE ${e.code})`;
  if (e.detail) reason += `; ${e.detail}`;
  if (e.hint) reason += `; hint: ${e.hint}`;
  return new MigrationFailedError(migrationLabel(file), line, reason, { cause: error });
}

/**
 * Create a migrator.
 *
 * @param pool the app's pg pool (`Database.pool`); `migrate` holds one connection for its whole run and discards it afterwards (so `SET` statements in migrations never leak into the pool).
 * @param sets migration sets, in the order they run (framework sets, plugins, then `app` is the usual order).
 * @throws {MigrationSetError} for an invalid or duplicated source name.
 * @example
 *   const migrator = createMigrator(database.pool, [{ source: 'app', dir: join(root, 'generated/migrations') }]);
 *   await migrator.migrate({ onProgress: printMigrationProgress(process.stdout) });
 */
export function createMigrator(pool: pg.Pool, sets: readonly MigrationSet[]): Migrator {
  validateMigrationSets(sets);
  return {
    status: () => computeStatus(pool, sets),
    async pending() {
      return (await computeStatus(pool, sets)).pending;
    },
    async migrate(options = {}) {
      const progress = options.onProgress ?? (() => {});
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        const got = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1::bigint) as ok', [LOCK_KEY]);
        if (!got.rows[0]?.ok) {
          progress({ kind: 'waiting' });
          await client.query('select pg_advisory_lock($1::bigint)', [LOCK_KEY]);
        }
        await client.query(`create table if not exists ${MIGRATIONS_TABLE} (
          source text not null,
          name text not null,
          checksum text not null,
          applied_at timestamptz not null default now(),
          primary key (source, name)
        )`);
        await client.query(`create table if not exists ${FAILURES_TABLE} (
          source text not null,
          name text not null,
          checksum text not null,
          error text not null,
          failed_at timestamptz not null default now(),
          primary key (source, name)
        )`);
        const status = await computeStatus(client, sets);
        if (status.changed.length > 0) {
          const recorded = new Map(status.applied.map((a) => [migrationLabel(a), a]));
          throw new MigrationChangedError(
            status.changed.map(migrationLabel),
            status.changed.map((f) => {
              const a = recorded.get(migrationLabel(f))!;
              return `${f.path}: applied ${a.appliedAt.toISOString()} with checksum ${a.checksum.slice(0, 12)}…, the file now has ${f.checksum.slice(0, 12)}…`;
            }),
          );
        }
        const applied: { source: string; name: string; ms: number }[] = [];
        for (const file of status.pending) {
          progress({ kind: 'applying', migration: file });
          const started = performance.now();
          await client.query('begin');
          try {
            if (file.sql.trim() !== '') await client.query(file.sql);
            await client.query(`insert into ${MIGRATIONS_TABLE} (source, name, checksum) values ($1, $2, $3)`, [
              file.source,
              file.name,
              file.checksum,
            ]);
            await client.query(`delete from ${FAILURES_TABLE} where source = $1 and name = $2`, [file.source, file.name]);
            await client.query('commit');
          } catch (error) {
            await client.query('rollback').catch((e: Error) => {
              broken = e;
            });
            const failed = failure(file, error);
            if (!broken) await recordFailure(client, file, failed.reason).catch(() => {});
            throw failed;
          }
          const ms = Math.round(performance.now() - started);
          applied.push({ source: file.source, name: file.name, ms });
          progress({ kind: 'applied', migration: file, ms });
        }
        return { applied };
      } finally {
        if (!broken)
          await client.query('select pg_advisory_unlock($1::bigint)', [LOCK_KEY]).catch((e: Error) => {
            broken = e;
          });
        client.release(true);
      }
    },
  };
}
