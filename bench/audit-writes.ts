/**
 * Benchmark: the audit data layer against the same writes through plain
 * Kysely, on a real PostgreSQL — `DATABASE_URL`
 * (a fresh database is created on it and dropped), or an embedded server
 * the bench starts in a temporary folder and removes.
 *
 * 1. Single-row update, one at a time: `models.Document.update(id, { title })`
 *    inside a request-like execution context, vs
 *    `db.updateTable('documents').set({ title, updated_at }).where('id', '=', id).returningAll()`.
 *    Target: at most 2× the latency.
 * 2. A 100,000-row bulk update (`status = 'archived'` on one owner's published
 *    documents): `models.Document.query().where(…).update(…)` (keys locked,
 *    chunks of 1,000, 100,000 items, values before of 10,000 rows) vs one
 *    plain `UPDATE`. Target: at most 3× the time.
 *
 * The two sides alternate (single-row: in blocks of 100 updates; bulk: one
 * update each per round), so load from elsewhere falls on both; the medians
 * of the times and of the per-round ratios are reported.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { trackedResources } from '../generated/audit.js';
import type { Database as AppDatabase } from '../generated/types.js';
import { AuditLog, type TrackedModel } from 'bindery/audit';
import { AUDIT_MIGRATIONS_DIR } from '../runtime/audit/audit-step.js';
import { postgresPoolOf } from '../runtime/db/engines/postgres/index.js';
import { runInContext } from 'bindery/context';
import { connectDatabase, type Database } from 'bindery/db';
import { benchDatabase } from './support/database.js';

export interface AuditBenchOptions {
  /** Measured rounds per case (median reported). */
  readonly rounds: number;
  /** Single-row updates per round and side. */
  readonly updates: number;
  /** Rows of the bulk update. */
  readonly bulkRows: number;
}

export interface AuditBenchRow {
  readonly name: string;
  /** Plain Kysely: median per update (µs) or per bulk update (ms); `ratio` is the median of the per-round ratios. */
  readonly plain: number;
  readonly audited: number;
  readonly unit: 'µs' | 'ms';
  readonly ratio: number;
  readonly target: number;
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function applyMigrations(database: Database): Promise<void> {
  for (const dir of [
    fileURLToPath(new URL('../generated/migrations/postgres/', import.meta.url)),
    join(AUDIT_MIGRATIONS_DIR, 'postgres'),
  ]) {
    for (const file of (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort())
      await postgresPoolOf(database).query(await readFile(join(dir, file), 'utf8'));
  }
  // The bench writes documents of owner 1 without a users row: the app's
  // foreign key documents.owner_id → users.id is not what it measures.
  await postgresPoolOf(database).query('ALTER TABLE documents DROP CONSTRAINT documents_owner_id_fkey');
}

type DB = AppDatabase & { audit_log: { id: number }; audit_bulk: { id: number }; audit_bulk_items: { bulk_id: number } };

/** Run the audit benchmark; returns one row per case. */
export async function runAuditBench(
  options: AuditBenchOptions,
  log: (line: string) => void,
): Promise<{ rows: AuditBenchRow[]; where: string }> {
  const target = await benchDatabase(`bench_audit_${process.pid}`, log);
  const database = await connectDatabase<DB>({ url: target.url, max: 4 });
  const audit = new AuditLog({ database });
  try {
    await applyMigrations(database);
    const Document = audit.track<DB, 'documents', 'id'>(trackedResources.Document);
    const rows = [await singleRow(database.db, Document, options, log), await bulk(database.db, Document, options, log)];
    return { rows, where: target.where };
  } finally {
    audit.close();
    await database.close();
    await target.dispose();
  }
}

async function singleRow(
  db: Kysely<DB>,
  Document: TrackedModel<DB, 'documents', 'id'>,
  options: AuditBenchOptions,
  log: (line: string) => void,
): Promise<AuditBenchRow> {
  await sql`truncate documents, audit_log, audit_bulk, audit_bulk_items restart identity cascade`.execute(db);
  await sql`insert into documents (owner_id, slug, title, body) select 1, 'doc-' || g, 'Title ' || g, 'Body' from generate_series(1, 1000) g`.execute(
    db,
  );
  await sql`vacuum analyze documents`.execute(db);
  // As in a request: an execution context with a signed-in user, via and request ID.
  const context = {
    via: { kind: 'request', name: 'PATCH /api/documents/1' },
    requestId: 'bench',
    resolveUser: async () => ({ type: 'user', id: '1' }),
  };
  let n = 0;
  const plain = async () => {
    const id = (n++ % 1000) + 1;
    await db
      .updateTable('documents')
      .set({ title: `Plain ${n}`, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  };
  const audited = async () => {
    const id = (n++ % 1000) + 1;
    await runInContext(context, () => Document.update(id, { title: `Audited ${n}` }));
  };
  // Blocks of 100 updates, alternating sides, so load from elsewhere on the
  // machine falls on both alike; a round is `options.updates` per side.
  const block = async (fn: () => Promise<void>) => {
    const t0 = performance.now();
    for (let i = 0; i < 100; i++) await fn();
    return performance.now() - t0;
  };
  for (let i = 0; i < 5; i++) {
    await block(plain);
    await block(audited);
  }
  const plainUs: number[] = [];
  const auditedUs: number[] = [];
  const ratios: number[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    let p = 0;
    let a = 0;
    for (let i = 0; i < Math.ceil(options.updates / 100); i++) {
      p += await block(plain);
      a += await block(audited);
    }
    const per = Math.ceil(options.updates / 100) * 100;
    plainUs.push((p / per) * 1000);
    auditedUs.push((a / per) * 1000);
    ratios.push(a / p);
    log(
      `  round ${round}: single-row update  plain ${plainUs.at(-1)!.toFixed(0)} µs   audited ${auditedUs.at(-1)!.toFixed(0)} µs   ${ratios.at(-1)!.toFixed(2)}×`,
    );
  }
  const entries = await db.selectFrom('audit_log').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  if (entries.n < options.updates * options.rounds) throw new Error(`expected an entry per audited update, found ${entries.n}`);
  return {
    name: `single-row update (${options.updates} per side and round)`,
    plain: median(plainUs),
    audited: median(auditedUs),
    unit: 'µs',
    ratio: median(ratios),
    target: 2,
  };
}

async function bulk(
  db: Kysely<DB>,
  Document: TrackedModel<DB, 'documents', 'id'>,
  options: AuditBenchOptions,
  log: (line: string) => void,
): Promise<AuditBenchRow> {
  const rows = options.bulkRows;
  const reset = async () => {
    await sql`truncate documents, audit_log, audit_bulk, audit_bulk_items restart identity cascade`.execute(db);
    await sql`insert into documents (owner_id, slug, title, body, status) select 1, 'doc-' || g, 'Title ' || g, 'Body', 'published' from generate_series(1, ${rows}) g`.execute(
      db,
    );
    await sql`vacuum analyze documents`.execute(db);
    await sql`checkpoint`.execute(db);
  };
  const plainMs: number[] = [];
  const auditedMs: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round <= options.rounds; round++) {
    await reset();
    let t0 = performance.now();
    const plain = await db
      .updateTable('documents')
      .set({ status: 'archived', updated_at: sql`now()` })
      .where('owner_id', '=', 1)
      .where('status', '=', 'published')
      .executeTakeFirst();
    const p = performance.now() - t0;
    if (Number(plain.numUpdatedRows) !== rows) throw new Error(`plain update changed ${plain.numUpdatedRows} rows`);
    await reset();
    t0 = performance.now();
    const n = await Document.query().where('owner_id', '=', 1).where('status', '=', 'published').update({ status: 'archived' });
    const a = performance.now() - t0;
    if (n !== rows) throw new Error(`audited update changed ${n} rows`);
    const items = await db.selectFrom('audit_bulk_items').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    if (items.n !== rows) throw new Error(`expected ${rows} bulk items, found ${items.n}`);
    if (round === 0) continue; // warm-up
    plainMs.push(p);
    auditedMs.push(a);
    ratios.push(a / p);
    log(`  round ${round}: ${rows}-row bulk update  plain ${p.toFixed(0)} ms   audited ${a.toFixed(0)} ms   ${(a / p).toFixed(2)}×`);
  }
  return {
    name: `${rows.toLocaleString('en')}-row bulk update`,
    plain: median(plainMs),
    audited: median(auditedMs),
    unit: 'ms',
    ratio: median(ratios),
    target: 3,
  };
}
