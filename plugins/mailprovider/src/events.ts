/**
 * Events of the mail-provider plugin: emitted when the suppression list
 * changes (in the transaction that changes it), for the app's listeners.
 */
import { defineEvent } from 'bindery/events';

/** An address was listed. */
export interface SuppressedEvent {
  readonly email: string;
  /** What listed it: the bounce type, `SpamComplaint` or `SubscriptionChange`. */
  readonly event: string;
  readonly reason: string;
}

/** An address was removed from the list. */
export interface UnsuppressedEvent {
  readonly email: string;
  /** `webhook` (the provider resumed sending) or `command` (`mailprovider:unsuppress`). */
  readonly by: 'webhook' | 'command';
}

export const suppressedEvent = defineEvent<SuppressedEvent>({
  name: 'mailprovider:suppressed',
  description: 'An address was added to the suppression list.',
});
export const unsuppressedEvent = defineEvent<UnsuppressedEvent>({
  name: 'mailprovider:unsuppressed',
  description: 'An address was removed from the suppression list.',
});

declare module 'bindery/events' {
  interface EventPayloads {
    'mailprovider:suppressed': SuppressedEvent;
    'mailprovider:unsuppressed': UnsuppressedEvent;
  }
}
