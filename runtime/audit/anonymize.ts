/**
 * Erasure (docs/spec.md 6.1 rule 12): `bindery audit:anonymize user <user_id>`.
 */
import { sql } from 'kysely';
import type { AuditLog } from './audit-log.js';

/** The actor type that replaces an erased actor. */
export const ERASED = 'erased';

/** What {@link anonymizeActor} changed. */
export interface AnonymizeResult {
  /** `audit_log` entries whose actor was replaced. */
  readonly entries: number;
  /** `audit_bulk` entries whose actor was replaced. */
  readonly bulk: number;
}

/**
 * Replace the actor `type:id` with `erased` (no ID) in every entry and bulk
 * entry, dropping those entries' IP addresses; entries about the person's own
 * rows keep their values. Records `audit.anonymized` with properties
 * `{ actor_type, entries }` (entries: both tables together) in the same
 * transaction.
 * @example await anonymizeActor(ctx.services.audit, { type: 'user', id: '42' })
 */
export async function anonymizeActor(log: AuditLog, actor: { readonly type: string; readonly id: string }): Promise<AnonymizeResult> {
  return log.database.db.transaction().execute(async (trx) => {
    const entries =
      await sql`update audit_log set actor_type = ${ERASED}, actor_id = null, ip = null where actor_type = ${actor.type} and actor_id = ${actor.id}`.execute(
        trx,
      );
    const bulk =
      await sql`update audit_bulk set actor_type = ${ERASED}, actor_id = null, ip = null where actor_type = ${actor.type} and actor_id = ${actor.id}`.execute(
        trx,
      );
    const result = { entries: Number(entries.numAffectedRows ?? 0n), bulk: Number(bulk.numAffectedRows ?? 0n) };
    await log.record(
      { action: 'audit.anonymized', details: { actor_type: actor.type, entries: result.entries + result.bulk } },
      { db: trx },
    );
    return result;
  });
}
