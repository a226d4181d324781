/**
 * `ctx.services.mailprovider`: what the plugin adds to the app's services.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../generated/types.js';
import type { WebhookCredentials } from './basic-auth.js';
import { Suppressions } from './suppressions.js';
import type { WebhookGuard } from './webhook-guard.js';

/** The plugin's service. */
export interface MailproviderService {
  /** The suppression list. */
  readonly suppressions: Suppressions;
  /** The credentials the webhook accepts. */
  readonly credentials: WebhookCredentials;
  /** The app's database, typed with the plugin's tables. @internal */
  readonly db: Kysely<Database>;
  /** The failure limit and replay memory of the webhook. @internal */
  readonly guard: WebhookGuard;
}

declare module 'bindery/http' {
  interface Services {
    /** The mail-provider plugin: its suppression list (`services.mailprovider.suppressions`). */
    mailprovider: MailproviderService;
  }
}

/** Make the service of a booted app. */
export function createService(
  db: Kysely<Database>,
  services: object,
  credentials: WebhookCredentials,
  guard: WebhookGuard,
): MailproviderService {
  return { suppressions: new Suppressions(db, services), credentials, db, guard };
}
