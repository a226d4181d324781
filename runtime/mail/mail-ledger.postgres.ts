/**
 * The sent-mail ledger's pruning on PostgreSQL (docs/mail.md "Idempotency
 * keys"): the age is measured on the database's clock, which wrote `sent_at`.
 */
import { sql } from 'kysely';
import type { AnyKysely } from '../db/any-kysely.js';

/** Delete the ledger's rows older than `days` days. */
export async function postgresPruneLedger(db: AnyKysely, days: number): Promise<void> {
  await sql`delete from mail_sent where sent_at < now() - make_interval(days => ${days})`.execute(db);
}
