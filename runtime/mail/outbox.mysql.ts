/**
 * The outbox's recipient filter on MySQL and MariaDB (docs/mail.md "The
 * outbox"): `recipients` is a JSON array of addresses, matched in any case
 * (the array's text lower-cased, then an element equal to the address).
 */
import { sql, type RawBuilder } from 'kysely';

/** Whether one of the message's recipients is `to` (given in lower case), in any case. */
export function mysqlRecipientIs(to: string): RawBuilder<boolean> {
  return sql<boolean>`json_contains(lower(recipients), json_quote(${to}))`;
}
