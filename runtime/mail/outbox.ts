/**
 * The outbox of `MAIL_DRIVER=outbox` (docs/mail.md "The
 * outbox"): table `mail_outbox` (migration set `mail`), written by the
 * mailer, read by `bindery mail:outbox` and by tests following a link.
 */
import type { Generated, Kysely } from 'kysely';
import type { AnyKysely } from '../db/any-kysely.js';
import { insertIfAbsent } from '../db/portable-writes.js';
import { strategyOf } from '../db/sql-dialect.js';
import { mysqlRecipientIs } from './outbox.mysql.js';
import { postgresRecipientIs } from './outbox.postgres.js';

/** The recipient filter by SQL family (the list of recipients is each engine's own type). */
const RECIPIENT_IS = { postgres: postgresRecipientIs, mysql: mysqlRecipientIs };

/** Row of `mail_outbox`. */
export interface OutboxTable {
  id: Generated<number>;
  message_id: string;
  sender: string;
  recipients: string[];
  subject: string;
  text_body: string;
  html_body: string | null;
  raw: string;
  /** The mail's idempotency key (docs/mail.md "Idempotency keys"): one message per key. */
  idempotency_key: string | null;
  created_at: Generated<Date>;
}

/** The database seen by the outbox. */
export interface OutboxDatabase {
  mail_outbox: OutboxTable;
}

/** What the outbox keeps of every message, as written and as read back. */
interface OutboxMail {
  readonly messageId: string;
  readonly from: string;
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
  readonly html: string | null;
}

/** A kept message. */
export interface OutboxMessage extends OutboxMail {
  readonly id: number;
  /** The links of the text body, in order (`http` and `https` URLs). */
  readonly links: readonly string[];
  readonly sentAt: Date;
}

/** A message to keep. */
export interface OutboxEntry extends OutboxMail {
  /** The RFC 5322 message nodemailer built. */
  readonly raw: string;
  /** Its idempotency key, if it has one. */
  readonly idempotencyKey: string | null;
}

/** Options of {@link readOutbox}. */
export interface ReadOutboxOptions {
  /** Only messages to this address (case-insensitive). */
  readonly to?: string;
  /** At most this many (default 20). */
  readonly limit?: number;
}

const LINK = /https?:\/\/[^\s<>"')\]]+/g;

/** The `http(s)` URLs of a text, in order. */
export function linksOf(text: string): string[] {
  return [...text.matchAll(LINK)].map((m) => m[0]);
}

/**
 * Keep a message in the outbox.
 * @returns false when a message with the same idempotency key is kept already: nothing was added.
 */
export async function keepInOutbox(db: AnyKysely, entry: OutboxEntry): Promise<boolean> {
  const kept = await insertIfAbsent(
    db as Kysely<OutboxDatabase>,
    'mail_outbox',
    {
      message_id: entry.messageId,
      sender: entry.from,
      recipients: [...entry.to],
      subject: entry.subject,
      text_body: entry.text,
      html_body: entry.html,
      raw: entry.raw,
      idempotency_key: entry.idempotencyKey,
    },
    { conflict: ['idempotency_key'] },
  );
  return kept > 0;
}

/**
 * The kept messages, newest first.
 * @example const [mail] = await readOutbox(db, { to: 'ada@example.com', limit: 1 });
 */
export async function readOutbox(db: AnyKysely, options: ReadOutboxOptions = {}): Promise<OutboxMessage[]> {
  let query = (db as Kysely<OutboxDatabase>)
    .selectFrom('mail_outbox')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit ?? 20);
  if (options.to !== undefined) {
    const to = options.to.trim().toLowerCase();
    query = query.where(strategyOf(db, RECIPIENT_IS, 'The outbox')(to));
  }
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    messageId: row.message_id,
    from: row.sender,
    to: row.recipients,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    links: linksOf(row.text_body),
    sentAt: row.created_at,
  }));
}
