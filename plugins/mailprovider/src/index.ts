/**
 * The mail-provider plugin (docs/spec.md 2.9, 4.4, 5.7, 6.2): the
 * provider's webhook at POST /mailprovider/webhook (HTTP Basic), the job that
 * keeps the suppression list, the list's commands, and the suppression check
 * the app's mailer calls (`deliverableRecipients(ctx.services, to)` from
 * "bindery/plugins").
 */
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { addMailSuppression, definePlugin } from 'bindery/plugins';
import { routes } from '../generated/routes.js';
import type { Database } from '../generated/types.js';
import { basicAuth } from './basic-auth.js';
import { SuppressionsCommand, UnsuppressCommand } from './commands.js';
import { suppressedEvent, unsuppressedEvent } from './events.js';
import { createService, type MailproviderService } from './service.js';
import { mailproviderSettings } from './settings.js';
import { handlers, jsonOnly, WEBHOOK_BODY_LIMIT, webhookJob } from './webhook.js';
import { WebhookGuard } from './webhook-guard.js';
import type { Cache } from 'bindery/cache';

export default definePlugin({
  name: 'mailprovider',
  bindery: '>=0.3.0 <0.4.0',
  description: "Receives the mail provider's bounce, spam-complaint and subscription-change webhooks and keeps a suppression list.",
  root: fileURLToPath(new URL('..', import.meta.url)),
  settings: mailproviderSettings,
  // Wrong credentials and seen records are counted in the cache (shared by every instance).
  requires: [{ name: 'cache', call: 'cache()' }],
  migrations: 'generated/migrations',
  routes: {
    table: routes,
    handlers,
    middleware: {
      'mailprovider.basic_auth': basicAuth(
        (services) => (services as { mailprovider?: MailproviderService }).mailprovider?.credentials,
        (services) => (services as { mailprovider?: MailproviderService }).mailprovider?.guard,
      ),
      'mailprovider.json_only': jsonOnly,
    },
    options: { 'mailprovider.webhook': { bodyLimit: WEBHOOK_BODY_LIMIT, jsonOnly: true } },
  },
  commands: [SuppressionsCommand, UnsuppressCommand],
  jobs: [webhookJob],
  events: [suppressedEvent, unsuppressedEvent],
  setup(ctx) {
    const guard = new WebhookGuard({
      cache: (ctx.services as { cache: Cache }).cache,
      maxFailures: ctx.settings.MAILPROVIDER_WEBHOOK_FAILURES,
      replayWindowMs: ctx.settings.MAILPROVIDER_REPLAY_WINDOW,
    });
    const service = createService(
      ctx.database.db as Kysely<Database>,
      ctx.services,
      {
        user: ctx.settings.MAILPROVIDER_WEBHOOK_USER,
        password: ctx.settings.MAILPROVIDER_WEBHOOK_PASSWORD,
      },
      guard,
    );
    ctx.services.mailprovider = service;
    addMailSuppression(ctx.services, service.suppressions);
  },
});

export { applyRecord, type RecordOutcome } from './apply-record.js';
export { WebhookGuard, FAILURE_WINDOW_MS, type WebhookGuardOptions } from './webhook-guard.js';
export {
  basicAuth,
  type FailureLimit,
  constantTimeEqual,
  credentialsMatch,
  parseBasicAuthorization,
  REALM,
  type WebhookCredentials,
} from './basic-auth.js';
export { SuppressionsCommand, UnsuppressCommand } from './commands.js';
export { suppressedEvent, unsuppressedEvent, type SuppressedEvent, type UnsuppressedEvent } from './events.js';
export {
  MAX_EMAIL_BYTES,
  normalizeAddress,
  parseWebhookRecord,
  RECORD_TYPES,
  SOFT_BOUNCE_TYPES,
  toWebhookRecord,
  type RecordType,
  type WebhookRecord,
} from './records.js';
export { createService, type MailproviderService } from './service.js';
export { mailproviderSettings } from './settings.js';
export { Suppressions } from './suppressions.js';
export { handlers, jsonOnly, WEBHOOK_BODY_LIMIT, webhookJob } from './webhook.js';
