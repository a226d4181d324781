/**
 * Audit entries of account changes (docs/auth.md "Audit"): who (the account
 * itself, `user:<id>`), what (`auth.<action>`), about which user, and
 * details that never hold a secret (no password, code, secret or token).
 */
import { withActor } from '../../context/execution-context.js';

/** What an account event records besides its actor and subject. */
export interface AccountEvent {
  /** The action, e.g. `auth.password_changed`, `auth.two_factor_enabled`. */
  readonly action: string;
  /** Plain facts only (a count, a name, the session's client address); never a password, code, secret or token. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** The part of the audit log an account event needs (`ctx.services.audit`, present with `audit()`). */
interface AuditRecorder {
  record(event: {
    readonly action: string;
    readonly subject: { readonly type: string; readonly id: string };
    readonly details?: Readonly<Record<string, unknown>> | null;
  }): Promise<void>;
}

/**
 * Record an account event in the audit log when the app has one (`audit()`
 * set up); nothing otherwise. The actor is the account (`user:<userId>`),
 * set explicitly so that steps taken before sign-in (a two-factor code, a
 * passkey) are attributed to the account they concern; the subject is
 * `users` / the authentication ID.
 * @param services the app's services (`ctx.services`).
 * @throws whatever the audit log's write throws (the database is down).
 * @example await recordAccountEvent(ctx.services, '42', { action: 'auth.password_changed' });
 */
export async function recordAccountEvent(services: object, userId: string, event: AccountEvent): Promise<void> {
  const audit = (services as { audit?: AuditRecorder }).audit;
  if (audit === undefined) return;
  await withActor({ type: 'user', id: userId }, () =>
    audit.record({ action: event.action, subject: { type: 'users', id: userId }, details: event.details ?? null }),
  );
}
