/**
 * The audit log's coded errors (runtime/errors/codes.ts "audit";
 * docs/errors.md).
 */
import { HttpError } from '../errors/http-error.js';
import { CodedError, codedErrorClass } from '../errors/coded-error.js';

/** A tracked model cannot be tracked or used as asked (`BINDERY_AUDIT_MODEL_INVALID`). */
export const AuditModelError = codedErrorClass('AuditModelError', 'BINDERY_AUDIT_MODEL_INVALID');
/** An instance of {@link AuditModelError}. */
export type AuditModelError = InstanceType<typeof AuditModelError>;

/** A row key longer than 255 bytes (`BINDERY_AUDIT_KEY_TOO_LONG`, docs/spec.md 6.1 rule 9). */
export class AuditKeyTooLongError extends CodedError {
  constructor(table: string, key: string | undefined, options?: { cause?: unknown }) {
    const seen =
      key === undefined ? 'longer than 255 bytes' : `${Buffer.byteLength(key)} bytes long (${JSON.stringify(key.slice(0, 40))}…)`;
    super(
      'BINDERY_AUDIT_KEY_TOO_LONG',
      `The key of a row of ${table} is ${seen}; audit entries name rows by keys of at most 255 bytes, so the write was refused.`,
      options,
    );
  }
}

/** An actor ID longer than 100 bytes (`BINDERY_AUDIT_ACTOR_TOO_LONG`, docs/spec.md 6.1 rule 9). */
export class AuditActorTooLongError extends CodedError {
  constructor(type: string, id: string) {
    super(
      'BINDERY_AUDIT_ACTOR_TOO_LONG',
      `The actor ${type}:${JSON.stringify(id.slice(0, 40))}… has an ID of ${Buffer.byteLength(id)} bytes; audit entries keep actor IDs of at most 100 bytes, so the write was refused.`,
    );
  }
}

/** An upsert row without a value in a conflict column (`BINDERY_AUDIT_UPSERT_KEY_MISSING`, docs/spec.md 6.1 rule 7). */
export const AuditUpsertKeyError = codedErrorClass('AuditUpsertKeyError', 'BINDERY_AUDIT_UPSERT_KEY_MISSING');
/** An instance of {@link AuditUpsertKeyError}. */
export type AuditUpsertKeyError = InstanceType<typeof AuditUpsertKeyError>;

/**
 * An upsert on MySQL or MariaDB whose conflict columns are an index unique
 * only among live rows (`BINDERY_AUDIT_UPSERT_UNIQUE_LIVE`, docs/spec.md 7
 * rule 10; docs/audit.md "Engines"): those servers have no partial indexes,
 * so `ON DUPLICATE KEY UPDATE` cannot match on it. Nothing was written.
 */
export const AuditUpsertUniqueLiveError = codedErrorClass('AuditUpsertUniqueLiveError', 'BINDERY_AUDIT_UPSERT_UNIQUE_LIVE');
/** An instance of {@link AuditUpsertUniqueLiveError}. */
export type AuditUpsertUniqueLiveError = InstanceType<typeof AuditUpsertUniqueLiveError>;

/**
 * A chunk of a bulk write changed fewer rows than were selected (docs/spec.md 6.1
 * rule 3, 7 rule 9): everything was rolled back; the write can be retried.
 * Answers 409 when it reaches a client.
 */
export class AuditBulkConflictError extends HttpError {
  /** Always true: running the write again is safe. */
  readonly retryable = true;
  constructor(table: string, selected: number, changed: number) {
    super(
      'BINDERY_AUDIT_BULK_CONFLICT',
      `A bulk write to ${table} changed ${changed} of the ${selected} rows selected in one chunk; nothing was written. Try again.`,
    );
  }

  override get name(): string {
    return 'AuditBulkConflictError';
  }
}

/** A history cursor the history did not make (400 on the `cursor` field). */
export class AuditCursorError extends HttpError {
  constructor() {
    super('BINDERY_AUDIT_CURSOR_INVALID', 'The cursor is not valid; start again without it and follow the "next" values of the pages.', {
      fieldErrors: { cursor: 'The cursor is not valid.' },
    });
  }

  override get name(): string {
    return 'AuditCursorError';
  }
}

/**
 * The audit log has no writer strategy for the database's engine
 * (`BINDERY_AUDIT_ENGINE_UNSUPPORTED`, docs/audit.md "Engines"): thrown when
 * the `AuditLog` is made, naming the engine.
 */
export const AuditEngineError = codedErrorClass('AuditEngineError', 'BINDERY_AUDIT_ENGINE_UNSUPPORTED');
/** An instance of {@link AuditEngineError}. */
export type AuditEngineError = InstanceType<typeof AuditEngineError>;
