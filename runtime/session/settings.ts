/**
 * The session settings (docs/spec.md 5.3, 8 "SESSION_LIFETIME",
 * "SESSION_MAX_LIFETIME", 9 "SESSION_DRIVER"; docs/sessions.md "Settings").
 * Loaded with the core settings at boot, so one error lists every bad one.
 */
import { defineSettings, type SettingsDefinition } from '../config/define-settings.js';
import { booleanSetting, durationSetting, enumSetting } from '../config/parsers.js';
import type { CrossSettingProblem, SettingParser, SettingsValues } from '../config/setting.js';
import { formatDuration } from '../support/duration.js';
import type { SettingSpecs } from '../config/setting.js';

/** `SESSION_LIFETIME` may not be shorter than this (ms). */
export const MIN_SESSION_LIFETIME_MS = 60_000;

/** Cookie names: RFC 6265 token characters, without the reserved `__Host-`/`__Secure-` prefixes. */
const COOKIE_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/;
/** A host name for `Domain=`, optionally with a leading dot. */
const DOMAIN = /^\.?(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

function cookieNameSetting(): SettingParser<string> {
  return {
    allowed: "a cookie name of letters, digits and !#$%&'*+.^_`|~- (at most 64 characters, without a __Host- or __Secure- prefix)",
    parse(text) {
      if (/^__(host|secure)-/i.test(text)) return { ok: false, message: 'the __Host- prefix is added by bindery when it applies' };
      return COOKIE_NAME.test(text) ? { ok: true, value: text } : { ok: false };
    },
  };
}

function domainSetting(): SettingParser<string> {
  return {
    allowed: 'a host name such as example.com (the cookie is then sent to its subdomains too)',
    parse: (text) => (DOMAIN.test(text) ? { ok: true, value: text.toLowerCase().replace(/^\./, '') } : { ok: false }),
  };
}

/**
 * The settings declaration of the session step, for the given driver names.
 * @param drivers the known `SESSION_DRIVER` values (built-in `cookie`, `database`, plus the app's own); listed in the error for an unknown one.
 */
export function sessionSettings(drivers: readonly string[]) {
  return defineSettings(
    {
      SESSION_DRIVER: {
        description:
          'Where sessions live: cookie (encrypted in the cookie itself) or database (a row per session; the cookie holds only its encrypted ID, and logout revokes it).',
        parser: enumSetting(drivers),
        default: 'cookie',
      },
      SESSION_LIFETIME: {
        description: "Idle lifetime: a session unused for longer ends. Also the cookie's Max-Age. At least one minute.",
        parser: durationSetting({ min: MIN_SESSION_LIFETIME_MS }),
        default: '2h',
      },
      SESSION_MAX_LIFETIME: {
        description: 'Absolute lifetime: a session older than this ends, however active (0: no limit). 0 or at least SESSION_LIFETIME.',
        parser: durationSetting(),
        default: '168h',
      },
      SESSION_COOKIE: {
        description:
          "The session cookie's name; bindery adds the __Host- prefix when the cookie is Secure, has no domain and path /. Renaming it ends every session.",
        parser: cookieNameSetting(),
        default: 'app_session',
      },
      SESSION_DOMAIN: {
        description:
          'Domain attribute of the session cookie, to share it with subdomains. Unset: this host only (and the __Host- prefix when Secure).',
        parser: domainSetting(),
        example: 'example.com',
      },
      SESSION_SAME_SITE: {
        description: 'SameSite attribute of the session cookie. none needs a Secure cookie.',
        parser: enumSetting(['lax', 'strict', 'none']),
        default: 'lax',
      },
      SESSION_SECURE: {
        description:
          'Send the session cookie over HTTPS only. Unset: true unless APP_ENV is development or testing. Switching it ends every session.',
        parser: booleanSetting(),
        example: 'true',
      },
    },
    { check: (values) => checkSessionSettings(values as SettingsValues<SettingSpecs>) },
  );
}

/** The session settings' declaration type. */
export type SessionSettingsDefinition = ReturnType<typeof sessionSettings>;
/** The loaded session settings. */
export type SessionSettings = SessionSettingsDefinition extends SettingsDefinition<infer S> ? SettingsValues<S> : never;

/** Whether the session cookie is Secure: `SESSION_SECURE`, else true outside development and testing. */
export function sessionCookieSecure(values: Readonly<Record<string, unknown>>): boolean {
  const explicit = values.SESSION_SECURE;
  if (typeof explicit === 'boolean') return explicit;
  return values.APP_ENV !== 'development' && values.APP_ENV !== 'testing';
}

function checkSessionSettings(values: Readonly<Record<string, unknown>>): CrossSettingProblem[] {
  const problems: CrossSettingProblem[] = [];
  const lifetime = values.SESSION_LIFETIME as number;
  const max = values.SESSION_MAX_LIFETIME as number;
  if (max !== 0 && max < lifetime) {
    problems.push({
      names: ['SESSION_MAX_LIFETIME', 'SESSION_LIFETIME'],
      message: `SESSION_MAX_LIFETIME (${formatDuration(max)}) must be 0 (no limit) or at least SESSION_LIFETIME (${formatDuration(lifetime)})`,
    });
  }
  if (values.SESSION_SAME_SITE === 'none' && !sessionCookieSecure(values)) {
    problems.push({
      names: ['SESSION_SAME_SITE', ...(typeof values.SESSION_SECURE === 'boolean' ? ['SESSION_SECURE'] : ['APP_ENV'])],
      message:
        'SESSION_SAME_SITE=none needs a Secure cookie (browsers refuse SameSite=None without it); set SESSION_SECURE=true and serve over HTTPS, or use lax',
    });
  }
  return problems;
}
