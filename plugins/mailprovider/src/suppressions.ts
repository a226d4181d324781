/**
 * The suppression list (table `mailprovider_suppressions`, docs/spec.md 2.9): the
 * service behind the job, the commands and the mailer's check.
 */
import type { Kysely } from 'kysely';
import { insertIfAbsent } from 'bindery/db';
import { emitEvent } from 'bindery/events';
import type { MailSuppression } from 'bindery/plugins';
import type { Database, MailproviderSuppression } from '../generated/types.js';
import { suppressedEvent, unsuppressedEvent } from './events.js';
import { normalizeAddress } from './records.js';

/** The suppression list of one app (`ctx.services.mailprovider`). */
export class Suppressions implements MailSuppression {
  readonly #db: Kysely<Database>;
  readonly #services: object;

  /**
   * @param db the app's database.
   * @param services the app's services (events are emitted through them when the app has `events()`).
   */
  constructor(db: Kysely<Database>, services: object) {
    this.#db = db;
    this.#services = services;
  }

  /** True when `email` (trimmed, lower-cased) is listed. An address that cannot be listed (blank, over 254 bytes) is not. */
  async isSuppressed(email: string): Promise<boolean> {
    const address = normalizeAddress(email);
    if (address === null) return false;
    const row = await this.#db.selectFrom('mailprovider_suppressions').select('email').where('email', '=', address).executeTakeFirst();
    return row !== undefined;
  }

  /** The listed addresses among `emails`, trimmed and lower-cased. One query. */
  async suppressedAmong(emails: readonly string[]): Promise<Set<string>> {
    const addresses = [...new Set(emails.map(normalizeAddress).filter((e): e is string => e !== null))];
    if (addresses.length === 0) return new Set();
    const rows = await this.#db.selectFrom('mailprovider_suppressions').select('email').where('email', 'in', addresses).execute();
    return new Set(rows.map((r) => r.email));
  }

  /** Every listed address, sorted by email. */
  list(): Promise<MailproviderSuppression[]> {
    return this.#db.selectFrom('mailprovider_suppressions').selectAll().orderBy('email').execute();
  }

  /**
   * List an address unless it is listed already (the first listing stays: its event, reason and time).
   * @param db the transaction to write in (default: the app's database).
   * @returns true when it was added now.
   */
  async add(email: string, event: string, reason: string, db: Kysely<Database> = this.#db): Promise<boolean> {
    const values = { email, event: event.slice(0, 40), reason: reason.slice(0, 200) };
    const inserted = (await insertIfAbsent(db, 'mailprovider_suppressions', values, { conflict: ['email'] })) > 0;
    if (inserted) await emitEvent(this.#services, suppressedEvent, { email, event, reason }, { tx: db });
    return inserted;
  }

  /**
   * Remove an address from the list.
   * @param by who removes it, for the `mailprovider:unsuppressed` event.
   * @returns true when it was listed.
   */
  async remove(email: string, by: 'webhook' | 'command', db: Kysely<Database> = this.#db): Promise<boolean> {
    const address = normalizeAddress(email);
    if (address === null) return false;
    const { numDeletedRows } = await db.deleteFrom('mailprovider_suppressions').where('email', '=', address).executeTakeFirst();
    const deleted = numDeletedRows > 0n;
    if (deleted) await emitEvent(this.#services, unsuppressedEvent, { email: address, by }, { tx: db });
    return deleted;
  }
}
