/**
 * The events of the auth core: auth and sessions emit typed, namespaced
 * events (docs/auth.md "Events"). Emitted through
 * `emitEvent`, so they cost nothing in apps without `events()`.
 */
import { defineEvent } from '../events/define-event.js';

/** How a user was signed in. */
/** `two-factor`: the password, then a code (docs/auth.md "Two-factor authentication"); `passkey`: a passkey assertion. */
export type LoginMethod = 'password' | 'remember' | 'direct' | 'two-factor' | 'passkey' | 'oauth';

/** Payload of `session:login_succeeded`. */
export interface LoginSucceededPayload {
  readonly userId: string;
  /** `password` (AuthService.attempt), `remember` (the remember-me cookie), `direct` (AuthService.login: registration, an external provider). */
  readonly method: LoginMethod;
  readonly remember: boolean;
  readonly ip: string;
}

/** Payload of `session:login_failed` (never the password). */
export interface LoginFailedPayload {
  /** The login as typed, normalized (trimmed, lower case). */
  readonly login: string;
  /** The account the login names, or `null` when there is none. */
  readonly userId: string | null;
  readonly reason: 'credentials' | 'throttled';
  readonly ip: string;
}

/** Payload of `session:logout`. */
export interface LogoutPayload {
  readonly userId: string;
  readonly ip: string;
}

declare module '../events/define-event.js' {
  interface EventPayloads {
    'session:login_succeeded': LoginSucceededPayload;
    'session:login_failed': LoginFailedPayload;
    'session:logout': LogoutPayload;
  }
}

/** A user signed in (a new session ID was issued). */
export const loginSucceeded = defineEvent<LoginSucceededPayload>({ name: 'session:login_succeeded', description: 'A user signed in.' });
/** A login failed: unknown account, wrong password, or throttled. */
export const loginFailed = defineEvent<LoginFailedPayload>({
  name: 'session:login_failed',
  description: 'A login failed (credentials or throttled).',
});
/** A user signed out. */
export const loggedOut = defineEvent<LogoutPayload>({ name: 'session:logout', description: 'A user signed out.' });
