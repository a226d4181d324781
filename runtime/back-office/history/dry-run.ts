/**
 * A revert tried and rolled back (docs/back-office.md "History and revert"):
 * the revert engine of bindery/audit runs as it would — the rows locked,
 * compared, written through the tracked models, authorized — inside a
 * transaction that is then rolled back, so the confirm page can tell
 * beforehand whether the revert would go through, what it would write,
 * and which fields changed since (the three-way difference) without
 * writing anything. (framework-internal: used by the history pages.)
 */
import type { AnyKysely } from '../../db/any-kysely.js';
import type { AuditLog } from '../../audit/audit-log.js';
import {
  revertBulk,
  revertEntry,
  revertRequest,
  RevertConflictError,
  RevertForbiddenError,
  RevertRefusedError,
  AuditEntryNotFoundError,
  type RevertOptions,
  type RevertResult,
  type RowConflict,
} from '../../audit/index.js';
import { HttpError } from '../../errors/http-error.js';

/** What to revert: one entry, one bulk entry, or every entry of a request. */
export type RevertTarget =
  | { readonly kind: 'entry'; readonly id: string }
  | { readonly kind: 'bulk'; readonly id: string }
  | { readonly kind: 'request'; readonly id: string };

/** The outcome of a dry run. */
export type DryRunOutcome =
  | { readonly outcome: 'ok'; readonly result: RevertResult }
  | { readonly outcome: 'conflict'; readonly message: string; readonly conflicts: readonly RowConflict[] }
  | { readonly outcome: 'refused'; readonly message: string; readonly reasons: Readonly<Record<string, string>> }
  | { readonly outcome: 'forbidden'; readonly message: string }
  | { readonly outcome: 'not-found'; readonly message: string };

class RolledBack extends Error {
  constructor(readonly result: RevertResult) {
    super('dry run: rolled back');
  }
}

/** `db` whose transactions run `fn` and then roll back, handing its result out through {@link RolledBack}. */
function rollingBack(db: AnyKysely): AnyKysely {
  return new Proxy(db, {
    get(target, prop) {
      if (prop !== 'transaction') {
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return () => ({
        execute: (fn: (trx: AnyKysely) => Promise<RevertResult>) =>
          target.transaction().execute(async (trx: AnyKysely) => {
            throw new RolledBack(await fn(trx));
          }),
      });
    },
  });
}

/** `log` whose database's transactions roll back (everything else is the log's own). */
function dryLog(log: AuditLog): AuditLog {
  const { db, engine } = log.database;
  const database = { db: rollingBack(db), engine };
  return new Proxy(log, {
    get(target, prop) {
      if (prop === 'database') return database;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Run the revert of `target` for real: `revertEntry`, `revertBulk` or `revertRequest`. */
export function runRevert(log: AuditLog, target: RevertTarget, options: RevertOptions): Promise<RevertResult> {
  if (target.kind === 'entry') return revertEntry(log, { kind: 'entry', id: target.id }, options);
  if (target.kind === 'bulk') return revertBulk(log, target.id, options);
  return revertRequest(log, target.id, options);
}

/**
 * Try the revert of `target` and roll it back.
 * @param options as the revert's (`confirm`, `authorize`: the policy hook, asked as the real revert would).
 * @returns `ok` with what it would write, or why it would not: `conflict` (the rows and fields changed since),
 *   `refused`, `forbidden`, `not-found`.
 * @throws any other error (a database failure).
 */
export async function dryRevert(log: AuditLog, target: RevertTarget, options: RevertOptions = {}): Promise<DryRunOutcome> {
  try {
    await runRevert(dryLog(log), target, options);
  } catch (error) {
    if (error instanceof RolledBack) return { outcome: 'ok', result: error.result };
    if (error instanceof RevertConflictError) return { outcome: 'conflict', message: error.message, conflicts: error.conflicts };
    if (error instanceof RevertRefusedError) return { outcome: 'refused', message: error.message, reasons: error.reasons };
    if (error instanceof AuditEntryNotFoundError) return { outcome: 'not-found', message: error.message };
    if (error instanceof RevertForbiddenError || (error instanceof HttpError && (error.status === 403 || error.status === 404)))
      return { outcome: 'forbidden', message: error.message };
    throw error;
  }
  throw new Error('dryRevert: the revert returned without its transaction rolling back');
}
