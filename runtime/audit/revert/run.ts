/**
 * One revert in progress (docs/audit.md "Revert"): the transaction every
 * write of it runs in, what it reverts (for the details of its entries),
 * the caller's confirmations and authorization hook, and the entries it
 * wrote. Shared by the single-row and bulk reverts. (framework-internal:
 * not exported by an entry).
 */
import type { AnyKysely } from '../../db/any-kysely.js';
import type { DatabaseEngine } from '../../db/engine.js';
import type { AuditLog } from '../audit-log.js';
import { AuditModelError } from '../errors.js';
import { resolveModel, type ResolvedModel, type TrackedResourceConfig } from '../tracked-config.js';
import type { TrackedModel } from '../tracked-model.js';
import type { AuditWriter } from '../writers/writer.js';
import { RevertForbiddenError, RevertRefusedError, type EntryRef } from './errors.js';

/**
 * The authorization hook of a revert: may the caller perform `action`
 * (`update`, `restore`, `create`, `delete`, or `revert`) on `row` of
 * `resource` (the table)? `false` refuses with 403; the hook may also throw
 * its own refusal (`ctx.authorize`'s 403 or 404). See `policyAuthorizer`.
 */
export type RevertAuthorize = (action: string, resource: string, row: Readonly<Record<string, unknown>>) => Promise<boolean> | boolean;

/** What a revert performs on a row: its entry's `details.performed`. */
export type Performed = 'update' | 'restore' | 'delete' | 'create' | 'force_delete';

/** A part of an entry a revert left as it is, and why (a redacted field). */
export interface RevertNote {
  readonly resource: string;
  readonly id: string;
  readonly field: string;
  readonly reason: string;
}

/** The state of one revert's transaction. */
export interface RevertRun {
  readonly log: AuditLog;
  readonly trx: AnyKysely;
  readonly engine: DatabaseEngine;
  readonly writer: AuditWriter;
  /** Fields (or columns) the caller confirmed: their conflicts are overridden, or they are left to their defaults. */
  readonly confirm: ReadonlySet<string>;
  readonly authorize: RevertAuthorize | undefined;
  /** What the details of each entry written name: `{ kind, id }` or `{ requestId }`. */
  readonly reverted: Readonly<Record<string, unknown>>;
  /** The entries written, in order. */
  readonly written: EntryRef[];
  readonly notes: RevertNote[];
}

const RESOLVED = new WeakMap<TrackedResourceConfig, ResolvedModel>();

/**
 * The tracked model of `table`, and its resolved rules.
 * @throws {RevertRefusedError} when the table is not tracked by the log.
 */
export function modelOf(run: RevertRun, table: string | null, what: string): { model: TrackedModel; resolved: ResolvedModel } {
  let model: TrackedModel;
  try {
    if (table === null) throw new AuditModelError('no subject');
    model = run.log.model(table);
  } catch (error) {
    if (!(error instanceof AuditModelError)) throw error;
    throw new RevertRefusedError(what, {
      entry: `It is not about a row of a tracked table (${table ?? 'no subject'}); only writes through tracked models can be reverted.`,
    });
  }
  let resolved = RESOLVED.get(model.config);
  if (resolved === undefined) RESOLVED.set(model.config, (resolved = resolveModel(model.config)));
  return { model: model.using(run.trx as never), resolved };
}

/**
 * Ask the hook whether the caller may `action` the row, and (when the
 * hook answers for it) `revert` it.
 * @throws {RevertForbiddenError} (403) when refused.
 */
export async function authorizeWrite(
  run: RevertRun,
  action: string,
  table: string,
  id: string,
  row: Record<string, unknown>,
): Promise<void> {
  if (run.authorize === undefined) return;
  for (const name of [action, 'revert']) {
    if (!(await run.authorize(name, table, row))) throw new RevertForbiddenError(name, table, id);
  }
}

/** The ID of the newest `audit_log` entry of a row ('0' when none): entries after it are the revert's. */
export async function latestEntryId(run: RevertRun, table: string, id: string): Promise<string> {
  const row = await run.trx
    .selectFrom('audit_log')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('subject_type', '=', table)
    .where('subject_id', '=', id)
    .executeTakeFirst();
  const found = (row as { id?: unknown } | undefined)?.id;
  return found === null || found === undefined ? '0' : String(found);
}

/** The entry a revert's write just recorded for a row (newer than `after`), or undefined when it recorded none. */
export async function entryAfter(
  run: RevertRun,
  table: string,
  id: string,
  after: string,
): Promise<{ id: string; changes: { old?: Record<string, unknown>; new?: Record<string, unknown> } | null } | undefined> {
  const latest = await latestEntryId(run, table, id);
  if (latest === after) return undefined;
  const row = (await run.trx.selectFrom('audit_log').select(['id', 'changes']).where('id', '=', latest).executeTakeFirst()) as
    | { id: unknown; changes: unknown }
    | undefined;
  if (row === undefined) return undefined;
  const changes = typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes;
  return { id: String(row.id), changes: changes ?? null };
}

/** The details a revert's entry records. */
export function revertDetails(run: RevertRun, performed: Performed): Record<string, unknown> {
  return { reverted: run.reverted, performed };
}

/** Record the entry `id` (the write a revert just made) as `reverted`, naming what it reverted. */
export async function markEntry(run: RevertRun, id: string, performed: Performed): Promise<void> {
  await run.trx
    .updateTable('audit_log')
    .set({ action: 'reverted', properties: run.writer.documentText(revertDetails(run, performed)) })
    .where('id', '=', id)
    .execute();
  run.written.push({ kind: 'entry', id });
}
