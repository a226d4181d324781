/**
 * The sent-mail ledger's pruning on MySQL and MariaDB (docs/mail.md
 * "Idempotency keys"): the age is measured on the database's clock, in UTC,
 * which wrote `sent_at` (a `DATETIME(6)` holding UTC).
 */
import { sql } from 'kysely';
import type { AnyKysely } from '../db/any-kysely.js';

/** Delete the ledger's rows older than `days` days. */
export async function mysqlPruneLedger(db: AnyKysely, days: number): Promise<void> {
  await sql`delete from mail_sent where sent_at < utc_timestamp(6) - interval ${Math.trunc(days)} day`.execute(db);
}
