/**
 * The sent-mail ledger of `MAIL_DRIVER=smtp` (table `mail_sent`, migration
 * set `mail`; docs/mail.md "Idempotency keys"): the key of every keyed mail
 * the SMTP server accepted. The mailer checks it before sending and writes it
 * right after the server's acceptance, so a job that runs again does not
 * mail twice.
 *
 * The ledger never fails a send: a mail that went out and could not be
 * recorded is logged (a rerun would send it again), and a ledger that does
 * not exist yet (`bindery migrate` not run) is reported once and skipped.
 * Rows older than {@link LEDGER_RETENTION_DAYS} days are deleted, at most once
 * an hour per mailer.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { AnyKysely } from '../db/any-kysely.js';
import { isUndefinedTable } from '../db/database-errors.js';
import { insertIfAbsent } from '../db/portable-writes.js';
import { strategyOf } from '../db/sql-dialect.js';
import { mysqlPruneLedger } from './mail-ledger.mysql.js';
import { postgresPruneLedger } from './mail-ledger.postgres.js';

/** How long a key is remembered: far longer than a job is retried (25 attempts span about 4 days). */
export const LEDGER_RETENTION_DAYS = 30;

const PRUNE_EVERY_MS = 3_600_000;

/** The pruning by SQL family (the age is the database's to measure: it wrote `sent_at`). */
const PRUNE = { postgres: postgresPruneLedger, mysql: mysqlPruneLedger };

interface LedgerTable {
  mail_sent: { idempotency_key: string; message_id: string; sent_at?: Date };
}

/** The ledger; see the module doc. */
export class SentMailLedger {
  readonly #db: Kysely<LedgerTable>;
  readonly #log: FastifyBaseLogger;
  readonly #prune: (db: AnyKysely, days: number) => Promise<void>;
  #missing = false;
  #prunedAt = 0;

  /** @throws {TypeError} when the database's engine has no pruning statement. */
  constructor(db: AnyKysely, log: FastifyBaseLogger) {
    this.#db = db as Kysely<LedgerTable>;
    this.#log = log;
    this.#prune = strategyOf(db, PRUNE, 'The sent-mail ledger');
  }

  /** True when a mail with this key was sent. @throws what the database throws, but for a missing table (then false). */
  async has(key: string): Promise<boolean> {
    try {
      const row = await this.#db.selectFrom('mail_sent').select('idempotency_key').where('idempotency_key', '=', key).executeTakeFirst();
      return row !== undefined;
    } catch (error) {
      if (this.#isMissing(error)) return false;
      throw error;
    }
  }

  /** Record that the mail with this key was sent (a second record of a key is a no-op). Never throws. */
  async record(key: string, messageId: string): Promise<void> {
    try {
      await insertIfAbsent(this.#db, 'mail_sent', { idempotency_key: key, message_id: messageId }, { conflict: ['idempotency_key'] });
    } catch (error) {
      if (this.#isMissing(error)) return;
      this.#log.error(
        { err: error, idempotency_key: key, message_id: messageId },
        'a mail was sent but could not be recorded in the sent-mail ledger (mail_sent); if its job runs again it is sent again',
      );
      return;
    }
    if (Date.now() - this.#prunedAt >= PRUNE_EVERY_MS) {
      this.#prunedAt = Date.now();
      void this.#prune(this.#db, LEDGER_RETENTION_DAYS).catch((error: unknown) =>
        this.#log.debug({ err: error }, 'pruning the sent-mail ledger failed; tried again in an hour'),
      );
    }
  }

  #isMissing(error: unknown): boolean {
    if (!isUndefinedTable(error)) return false;
    if (!this.#missing) {
      this.#missing = true;
      this.#log.warn(
        'the sent-mail ledger (table mail_sent) does not exist: run "bindery migrate". Until then a job that runs again mails again (docs/mail.md "Idempotency keys")',
      );
    }
    return true;
  }
}
