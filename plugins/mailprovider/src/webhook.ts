/**
 * The webhook route `mailprovider.webhook` (POST /mailprovider/webhook, docs/spec.md
 * 4.4) and the job it queues, `mailprovider:webhook` (docs/spec.md 6.2).
 */
import { HttpError } from 'bindery/errors';
import { requireService, type AroundMiddleware } from 'bindery/http';
import { defineJob } from 'bindery/jobs';
import { maskEmail } from 'bindery/mail';
import { noContent } from 'bindery/results';
import type { Handlers } from '../generated/handlers.js';
import { applyRecord } from './apply-record.js';
import { parseWebhookRecord, toWebhookRecord, type WebhookRecord } from './records.js';

/** Largest webhook body: 1 MiB (larger gets 413). */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/** `application/json` or `application/<x>+json`. */
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Middleware `mailprovider.json_only`: a body that is not JSON (a form, multipart, none) is 400, before anything is read from it. */
export const jsonOnly: AroundMiddleware = async (ctx, next) => {
  const type = ctx.request.headers['content-type'];
  if (typeof type !== 'string' || !JSON_TYPE.test(type)) {
    throw new HttpError(
      400,
      `The webhook accepts only a JSON body (Content-Type: application/json); got ${typeof type === 'string' ? type.split(';')[0] : 'no Content-Type'}.`,
      { code: 'MAILPROVIDER_NOT_JSON' },
    );
  }
  return next();
};

/** The job: apply one record to the suppression list. */
export const webhookJob = defineJob<WebhookRecord>({
  name: 'mailprovider:webhook',
  description: 'Apply a webhook record of the mail provider to the suppression list (docs/spec.md 6.2).',
  payload: parseWebhookRecord,
  maxAttempts: 10,
  async handle(record, ctx) {
    const service = requireService(
      ctx.services,
      'mailprovider',
      'the mailprovider plugin (bindery add @bindery/mailprovider)',
      'The mailprovider:webhook job',
    );
    const outcome = await applyRecord(service.db, service.suppressions, record);
    // The address masked: log lines at info level carry no full address (docs/mail.md "Log lines").
    const email = maskEmail(record.email);
    ctx.log.info(
      { email, record_type: record.recordType, type: record.type, outcome },
      `mailprovider: ${record.recordType} for ${email}: ${outcome}`,
    );
  },
});

/** The route handlers. */
export const handlers = {
  async 'mailprovider.webhook'(input, ctx) {
    const record = toWebhookRecord(input);
    if (record === null) {
      ctx.log.debug({ record_type: input.recordType }, 'mailprovider webhook: record ignored (another type, or no usable address)');
      return noContent();
    }
    // A record already received (same MessageID and event) is not queued again: a replay or a provider retry.
    const claim = await ctx.services.mailprovider.guard.claim(input.messageId, record);
    if (!claim.first) {
      ctx.log.info(
        { record_type: record.recordType, code: 'MAILPROVIDER_REPLAY' },
        'mailprovider webhook: record already received; ignored',
      );
      return noContent();
    }
    try {
      await ctx.services.queue.add(webhookJob, record);
    } catch (error) {
      await claim.release().catch(() => {});
      throw error;
    }
    return noContent();
  },
} satisfies Handlers;
