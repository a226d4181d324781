/**
 * Webhook records: what the provider posts, and what the job
 * `mailprovider:webhook` receives (docs/spec.md 4.4, 6.2).
 *
 * Addresses are trimmed and lower-cased; a blank address, or one over 254
 * bytes (UTF-8), is no address. Only Bounce, SpamComplaint and
 * SubscriptionChange records matter; the others (Delivery, Open, Click, …)
 * are ignored.
 */
import type { MailproviderWebhookInput } from '../generated/types.js';
import { BinderyError } from 'bindery/errors';

/** The record types the plugin acts on. */
export const RECORD_TYPES = ['Bounce', 'SpamComplaint', 'SubscriptionChange'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

/** Longest address kept, in bytes (RFC 5321's path limit). */
export const MAX_EMAIL_BYTES = 254;

/** Bounce types that are soft: temporary, never listing an address (docs/spec.md 6.2 "soft bounces change nothing"). */
export const SOFT_BOUNCE_TYPES: readonly string[] = ['SoftBounce', 'Transient', 'DnsError', 'AutoResponder'];

/** The payload of the job `mailprovider:webhook`. */
export interface WebhookRecord {
  readonly recordType: RecordType;
  /** Trimmed, lower-cased, 1 to 254 bytes. */
  readonly email: string;
  /** Bounces: the provider's bounce type (`HardBounce`, `SoftBounce`, …). */
  readonly type: string | null;
  /** Bounces: the provider deactivated the address. */
  readonly inactive: boolean;
  /** Subscription changes: `true` stops sending to the address, `false` resumes it, `null` says neither. */
  readonly suppressSending: boolean | null;
  /** The provider's suppression reason or description, at most 200 characters. */
  readonly reason: string;
}

/** A trimmed, lower-cased address, or `null` when blank, not a string, or over 254 bytes. */
export function normalizeAddress(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const email = raw.trim().toLowerCase();
  if (email === '' || Buffer.byteLength(email, 'utf8') > MAX_EMAIL_BYTES) return null;
  return email;
}

function isRecordType(value: unknown): value is RecordType {
  return typeof value === 'string' && (RECORD_TYPES as readonly string[]).includes(value);
}

function reasonText(...candidates: (string | null | undefined)[]): string {
  const text = candidates.find((c) => typeof c === 'string' && c.trim() !== '')?.trim() ?? '';
  return text.length > 200 ? text.slice(0, 200) : text;
}

/**
 * The job payload for a bound webhook body, or `null` when the record is to
 * be ignored (another record type, or no usable address).
 */
export function toWebhookRecord(input: MailproviderWebhookInput): WebhookRecord | null {
  if (!isRecordType(input.recordType)) return null;
  const email = normalizeAddress(input.email ?? input.recipient);
  if (email === null) return null;
  return {
    recordType: input.recordType,
    email,
    type: input.type ?? null,
    inactive: input.inactive === true,
    suppressSending: input.suppressSending ?? null,
    reason: reasonText(input.suppressionReason, input.description),
  };
}

/**
 * The payload check of the job (queued by the webhook, or by hand).
 * @throws {BinderyError} `BINDERY_JOB_PAYLOAD_INVALID`, saying what is wrong.
 */
export function parseWebhookRecord(raw: unknown): WebhookRecord {
  if (typeof raw !== 'object' || raw === null) throw new BinderyError('BINDERY_JOB_PAYLOAD_INVALID', 'the payload must be an object');
  const r = raw as Record<string, unknown>;
  if (!isRecordType(r.recordType))
    throw new BinderyError('BINDERY_JOB_PAYLOAD_INVALID', `recordType must be one of ${RECORD_TYPES.join(', ')}`);
  const email = normalizeAddress(r.email);
  if (email === null) throw new BinderyError('BINDERY_JOB_PAYLOAD_INVALID', 'email must be an address of 1 to 254 bytes');
  if (r.type !== null && r.type !== undefined && typeof r.type !== 'string')
    throw new BinderyError('BINDERY_JOB_PAYLOAD_INVALID', 'type must be a string or null');
  if (typeof r.inactive !== 'boolean') throw new BinderyError('BINDERY_JOB_PAYLOAD_INVALID', 'inactive must be a boolean');
  if (r.suppressSending !== null && r.suppressSending !== undefined && typeof r.suppressSending !== 'boolean')
    throw new BinderyError('BINDERY_JOB_PAYLOAD_INVALID', 'suppressSending must be a boolean or null');
  if (r.reason !== undefined && typeof r.reason !== 'string')
    throw new BinderyError('BINDERY_JOB_PAYLOAD_INVALID', 'reason must be a string');
  return {
    recordType: r.recordType,
    email,
    type: (r.type as string | null | undefined) ?? null,
    inactive: r.inactive,
    suppressSending: (r.suppressSending as boolean | null | undefined) ?? null,
    reason: reasonText(r.reason as string | undefined),
  };
}
