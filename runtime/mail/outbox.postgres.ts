/**
 * The outbox's recipient filter on PostgreSQL (docs/mail.md "The outbox"):
 * `recipients` is a `text[]`, matched in any case.
 */
import { sql, type RawBuilder } from 'kysely';

/** Whether one of the message's recipients is `to` (given in lower case), in any case. */
export function postgresRecipientIs(to: string): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from unnest(recipients) as r where lower(r) = ${to})`;
}
