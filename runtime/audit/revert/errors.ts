/**
 * The errors of reverts and of the reads by reference (docs/audit.md
 * "Revert"; docs/errors.md): HTTP errors, so a route answers them as RFC 9457
 * problem details (404, 403, 409).
 */
import { HttpError } from '../../errors/http-error.js';

/** A reference to one entry: a single-row entry of `audit_log` or a bulk entry of `audit_bulk`. */
export interface EntryRef {
  readonly kind: 'entry' | 'bulk';
  /** The entry's ID, as text. */
  readonly id: string;
}

/** No entry (or bulk entry, or entries of a request ID) of that reference: 404 `BINDERY_AUDIT_ENTRY_NOT_FOUND`. */
export class AuditEntryNotFoundError extends HttpError {
  /** What was looked for. */
  readonly ref: EntryRef | { readonly requestId: string };
  constructor(ref: EntryRef | { readonly requestId: string }) {
    const what =
      'requestId' in ref
        ? `No audit entry has the request ID ${JSON.stringify(ref.requestId)}.`
        : `No ${ref.kind === 'bulk' ? 'bulk entry' : 'audit entry'} ${ref.id} exists.`;
    super('BINDERY_AUDIT_ENTRY_NOT_FOUND', what);
    this.ref = ref;
  }

  override get name(): string {
    return 'AuditEntryNotFoundError';
  }
}

/** One field of a row in conflict: the entry's old and new values and the current one. */
export interface FieldConflict {
  readonly field: string;
  /** The value before the reverted write (what the revert would write back). */
  readonly old: unknown;
  /** The value the reverted write left. */
  readonly new: unknown;
  /** The value now. */
  readonly current: unknown;
}

/** A row in conflict: its table, key and fields (none when the row itself changed: deleted, restored, gone). */
export interface RowConflict {
  readonly resource: string;
  readonly id: string;
  /** Why, when it is not a field's value (e.g. "the row was deleted since"). */
  readonly reason?: string;
  readonly fields: readonly FieldConflict[];
}

/**
 * Rows changed since the entry a revert reverts: 409
 * `BINDERY_AUDIT_REVERT_CONFLICT`. Nothing was written. `conflicts` holds the
 * three-way difference per row and field; the problem details' `errors` name
 * them, keyed `<table>/<key>.<field>` (or `<table>/<key>`).
 */
export class RevertConflictError extends HttpError {
  readonly conflicts: readonly RowConflict[];
  constructor(conflicts: readonly RowConflict[], hint = '') {
    const rows = conflicts.map((c) => `${c.resource}/${c.id}`);
    super(
      'BINDERY_AUDIT_REVERT_CONFLICT',
      `Nothing was reverted: ${rows.length === 1 ? 'the row' : 'the rows'} ${rows.join(', ')} changed since the entry.${hint}`,
      { fieldErrors: conflictMessages(conflicts) },
    );
    this.conflicts = conflicts;
  }

  override get name(): string {
    return 'RevertConflictError';
  }
}

function conflictMessages(conflicts: readonly RowConflict[]): Record<string, string> {
  const out: Record<string, string> = {};
  const text = (v: unknown) => (v === undefined ? 'absent' : JSON.stringify(v));
  for (const c of conflicts) {
    const row = `${c.resource}/${c.id}`;
    if (c.reason !== undefined) out[row] = c.reason;
    for (const f of c.fields)
      out[`${row}.${f.field}`] = `Changed since: the entry changed it from ${text(f.old)} to ${text(f.new)}; it is now ${text(f.current)}.`;
  }
  return out;
}

/**
 * A revert that cannot be made (values not kept, a row gone, a re-insert
 * the database would refuse): 409 `BINDERY_AUDIT_REVERT_REFUSED`, the
 * `reasons` in the detail and in `errors` (keyed by column, or `row`).
 * Nothing was written.
 */
export class RevertRefusedError extends HttpError {
  /** Why, keyed by column (or `row`, `entry`). */
  readonly reasons: Readonly<Record<string, string>>;
  constructor(what: string, reasons: Readonly<Record<string, string>>) {
    super('BINDERY_AUDIT_REVERT_REFUSED', `${what} cannot be reverted: ${Object.values(reasons).join(' ')}`, { fieldErrors: reasons });
    this.reasons = reasons;
  }

  override get name(): string {
    return 'RevertRefusedError';
  }
}

/** The `authorize` hook refused a write of a revert: 403 `BINDERY_AUDIT_REVERT_FORBIDDEN`. Nothing was written. */
export class RevertForbiddenError extends HttpError {
  constructor(action: string, resource: string, id: string) {
    super('BINDERY_AUDIT_REVERT_FORBIDDEN', `You may not ${action} ${resource}/${id}, so it cannot be reverted.`);
  }

  override get name(): string {
    return 'RevertForbiddenError';
  }
}
