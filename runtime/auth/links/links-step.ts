/**
 * The `links()` setup step (docs/boot.md "Setup steps"; docs/mail.md):
 * email verification and password reset links for an app with `auth()` and
 * `mail()`.
 */
import type { I18n } from '../../i18n/translator.js';
import type { Cache } from '../../cache/cache.js';
import type { SetupStep } from '../../app/setup-step.js';
import { KeyRing } from '../../crypto/key-ring.js';
import { Encrypter } from '../../crypto/encrypter.js';
import type { Mailer } from '../../mail/mailer.js';
import type { AuthService } from '../auth-service.js';
import { AccountLinks, type RevokeAllTokens } from './account-links.js';
import { LinkTokens } from './link-tokens.js';
import { LinkFingerprints } from '../account/link-fingerprint.js';
import { linkSettings } from './settings.js';
import { resetMailJob } from './reset-mail-job.js';
import { jobsRuntimeOf } from '../../jobs/jobs-runtime.js';
import { SetupError } from '../../app/errors.js';
import { resolveUsersTable, type LinkUsersTable } from './users-table.js';

declare module '../../http/context.js' {
  interface Services {
    /** Verification and reset links; present once `links()` is set up. */
    readonly accountLinks?: AccountLinks;
  }
}

/** Options of {@link links}. */
export interface LinksStepOptions {
  /** Table and column names of the users (defaults: docs/spec.md 2.1 — `users`, `id`, `email`, `email_verified_at`, `password`). */
  readonly users?: LinkUsersTable;
  /** Paths of the pages the links open (defaults `/verify-email`, `/reset-password`, as in docs/spec.md 4.1). */
  readonly paths?: { readonly verify?: string; readonly reset?: string };
  /** Clock in ms since the epoch (default the app's, `ctx.now`). */
  readonly now?: () => number;
}

/**
 * Email verification and password reset links (docs/spec.md 2.3, 3, 5.6).
 *
 * Adds the settings `AUTH_VERIFY_TTL` (24h) and `AUTH_RESET_TTL` (1h), both
 * at least one minute, and `ctx.services.accountLinks`. Needs `cache()`
 * (the forgot-password limit), `auth()` (user lookups, password hashing,
 * signing out everywhere) and `mail()` before it. When `tokens()` is set up
 * too, a password reset revokes every API token of the user. When `jobs()`
 * is set up before it, reset mails are queued as the job
 * `links:send_password_reset` (docs/auth.md "Password reset"); `jobs()`
 * listed after it stops the boot.
 *
 * @throws {SettingsError} at boot for a TTL under one minute (the message names the setting).
 * @throws {SetupError} at boot when `jobs()` comes after `links()`.
 * @example setup: [cache(), session(), auth(), mail(), tokens(), jobs(), links()]
 */
export function links(options: LinksStepOptions = {}): SetupStep {
  const users = resolveUsersTable(options.users);
  return {
    name: 'links',
    requires: [
      { name: 'cache', call: 'cache()' },
      { name: 'auth', call: 'auth()' },
      { name: 'mail', call: 'mail()' },
    ],
    settings: linkSettings,
    setup(ctx) {
      const s = ctx.settingsOf(linkSettings);
      const services = ctx.services as {
        auth?: AuthService;
        mailer?: Mailer;
        apiTokens?: { revokeAllIn: RevokeAllTokens };
        queue?: unknown;
      };
      // With jobs() set up before, the reset mail is a job (docs/auth.md "Password reset").
      const jobsRuntime = jobsRuntimeOf(ctx.services);
      let queueReset: ((login: string) => Promise<unknown>) | undefined;
      if (jobsRuntime !== undefined) {
        const job = resetMailJob(() => ctx.services.accountLinks as AccountLinks);
        jobsRuntime.registerJob(job, 'links()');
        queueReset = (login) => jobsRuntime.queue.add(job, { login });
      } else {
        ctx.addRouteCheck(() => {
          if (services.queue !== undefined) {
            throw new SetupError(
              'jobs() is set up after links(): list jobs() before links() in the setup list of app/main.ts, so password reset mails are queued as jobs (docs/auth.md "Password reset").',
            );
          }
        });
      }
      const ring = KeyRing.fromSettings(ctx.settings);
      ctx.services.accountLinks = new AccountLinks({
        ...(queueReset === undefined ? { log: ctx.log } : { queueReset }),
        tokens: new LinkTokens(new Encrypter(ring)),
        fingerprints: new LinkFingerprints(ring),
        db: ctx.database.db,
        auth: services.auth!,
        mailer: services.mailer!,
        users,
        appUrl: ctx.settings.APP_URL as URL,
        paths: { verify: options.paths?.verify ?? '/verify-email', reset: options.paths?.reset ?? '/reset-password' },
        verifyTtlMs: s.AUTH_VERIFY_TTL,
        resetTtlMs: s.AUTH_RESET_TTL,
        appName: ctx.app.name,
        // Read at send time: i18n() may come later in the setup list.
        i18n: () => (ctx.services as { i18n?: I18n }).i18n,
        revokeAllTokens: () => services.apiTokens?.revokeAllIn,
        cache: ctx.services.cache as Cache,
        now: options.now ?? ctx.now,
      });
    },
  };
}
