/**
 * Idempotency keys of mail (docs/mail.md "Idempotency keys").
 *
 * A mail carries a key when the sender gives one (`idempotencyKey`) or when
 * it is sent by a job: then the key is derived from the job's idempotency
 * key and the mail's identity — its recipients (trimmed, lower-cased,
 * sorted) and subject, and how many such mails the run sent before — so the
 * account mails (verification, reset, email change) sent by jobs are keyed
 * without any change to them. The body is not part of the identity: a
 * rerun builds a fresh link, and is still the same mail.
 */
import { createHash } from 'node:crypto';
import { jobEffectKey } from '../jobs/job-run.js';
import { normalizeEmail } from './mail-suppression.js';

/** Keys longer than this are stored as their SHA-256 (`sha256:<hex>`). */
const MAX_KEY_LENGTH = 200;

/**
 * The key of a mail to `recipients` with `subject`: `given` when it is a
 * non-empty string, else one derived from the running job, else `undefined`
 * (a mail sent by a request: sent every time).
 */
export function mailIdempotencyKey(given: string | undefined, recipients: readonly string[], subject: string): string | undefined {
  const key =
    typeof given === 'string' && given !== ''
      ? given
      : jobEffectKey('mail', JSON.stringify([[...recipients].map(normalizeEmail).sort(), subject]));
  if (key === undefined || key.length <= MAX_KEY_LENGTH) return key;
  return `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/**
 * The Message-ID of a keyed mail, the same for every send with that key:
 * a copy that still gets out twice (docs/mail.md "What is left") carries the
 * same Message-ID, which many mailbox providers fold into one.
 * @param from the sender (`MAIL_FROM`), whose domain ends the ID.
 */
export function keyedMessageId(key: string, from: string): string {
  const address = /<([^<>]*)>\s*$/.exec(from)?.[1] ?? from;
  const domain = address.slice(address.lastIndexOf('@') + 1).trim() || 'localhost';
  return `<${createHash('sha256').update(key).digest('base64url').slice(0, 32)}@${domain}>`;
}
