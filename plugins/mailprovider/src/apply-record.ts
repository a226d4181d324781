/**
 * What the job `mailprovider:webhook` does with a record (docs/spec.md 6.2, and the
 * suppression rows of docs/spec.md 3).
 *
 * | Record | Effect |
 * |---|---|
 * | Bounce, soft type (SoftBounce, Transient, DnsError, AutoResponder) | nothing — a late soft bounce never lifts nor changes a suppression |
 * | Bounce with `Inactive: true` (the provider deactivated the address: a hard bounce) | listed |
 * | Bounce with `Inactive: false` | nothing |
 * | SpamComplaint | listed |
 * | SubscriptionChange with `SuppressSending: true` (unsubscribe) | listed |
 * | SubscriptionChange with `SuppressSending: false` (resume sending) | removed |
 *
 * An address already listed keeps its first listing.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../generated/types.js';
import { SOFT_BOUNCE_TYPES, type WebhookRecord } from './records.js';
import type { Suppressions } from './suppressions.js';

/** What a record did to the list. */
export type RecordOutcome = 'listed' | 'already listed' | 'removed' | 'not listed' | 'unchanged';

/**
 * Apply one record, in one transaction (events of the change are emitted in it).
 * @returns what changed.
 */
export async function applyRecord(db: Kysely<Database>, suppressions: Suppressions, record: WebhookRecord): Promise<RecordOutcome> {
  return db.transaction().execute(async (tx) => {
    const list = async (event: string) => ((await suppressions.add(record.email, event, record.reason, tx)) ? 'listed' : 'already listed');
    switch (record.recordType) {
      case 'Bounce':
        if (record.type !== null && SOFT_BOUNCE_TYPES.includes(record.type)) return 'unchanged';
        return record.inactive ? list(record.type ?? 'Bounce') : 'unchanged';
      case 'SpamComplaint':
        return list('SpamComplaint');
      case 'SubscriptionChange':
        if (record.suppressSending === true) return list('SubscriptionChange');
        if (record.suppressSending === false) return (await suppressions.remove(record.email, 'webhook', tx)) ? 'removed' : 'not listed';
        return 'unchanged';
    }
  });
}
