/**
 * The verification and password reset mails (docs/auth.md "Email
 * verification", "Password reset"; docs/i18n.md "Mails"), in the
 * recipient's locale: the user's `locale` column when the app has that
 * locale, else `APP_LOCALE`. Without `i18n()`, English.
 */
import { escapeHtml } from '../../errors/html.js';
import type { I18n } from '../../i18n/translator.js';

/** The two link mails. */
export type LinkMailKind = 'verify' | 'reset';

/** A mail's subject and bodies. */
export interface LinkMailWords {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/**
 * `ms` in whole hours, else whole minutes, in `locale`: `24 hours`, `1 hour`, `90 minutes`.
 * English without `i18n`. Never throws.
 */
export function formatLinkTtl(ms: number, i18n?: I18n, locale?: string): string {
  const minutes = Math.round(ms / 60_000);
  const hours = minutes % 60 === 0 ? minutes / 60 : undefined;
  if (i18n !== undefined && locale !== undefined) {
    return hours === undefined
      ? i18n.t(locale, 'auth.duration.minutes', { n: String(minutes), count: minutes })
      : i18n.t(locale, 'auth.duration.hours', { n: String(hours), count: hours });
  }
  if (hours !== undefined) return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/** The catalog keys' English texts, for apps without `i18n()` (the same as lang/en/auth.yaml). */
const ENGLISH: Readonly<
  Record<LinkMailKind, { subject: (app: string) => string; intro: string; button: string; outro: (d: string) => string }>
> = {
  verify: {
    subject: (app) => `Verify your email address for ${app}`,
    intro: 'Please confirm this address by opening the link below:',
    button: 'Verify my email address',
    outro: (d) => `The link works for ${d}. If you did not create an account, ignore this mail.`,
  },
  reset: {
    subject: (app) => `Reset your ${app} password`,
    intro: 'Someone asked to reset the password of this account. To choose a new one, open the link below:',
    button: 'Reset my password',
    outro: (d) =>
      `The link works for ${d}, and only until the password or the email address of the account changes. If it was not you, ignore this mail.`,
  },
};

/**
 * The words of a link mail.
 * @param locale the recipient's stored locale (a user's `locale` column), or null.
 * @example linkMailWords('verify', { url, ttlMs: 86_400_000, appName: 'bindery', i18n, locale: 'de' })
 */
export function linkMailWords(
  kind: LinkMailKind,
  o: {
    readonly url: string;
    readonly ttlMs: number;
    readonly appName: string;
    readonly i18n?: I18n | undefined;
    readonly locale?: unknown;
  },
): LinkMailWords {
  const i18n = o.i18n;
  let subject: string;
  let intro: string;
  let button: string;
  let outro: string;
  if (i18n === undefined) {
    const en = ENGLISH[kind];
    const duration = formatLinkTtl(o.ttlMs);
    subject = en.subject(o.appName);
    intro = en.intro;
    button = en.button;
    outro = en.outro(duration);
  } else {
    const locale = i18n.localeFor(o.locale);
    const duration = formatLinkTtl(o.ttlMs, i18n, locale);
    subject = i18n.t(locale, `auth.mail.${kind}.subject`, { app: o.appName });
    intro = i18n.t(locale, `auth.mail.${kind}.intro`);
    button = i18n.t(locale, `auth.mail.${kind}.button`);
    outro = i18n.t(locale, `auth.mail.${kind}.outro`, { duration });
  }
  return {
    subject,
    text: `${intro}\n\n${o.url}\n\n${outro}\n`,
    html: `<p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(o.url)}">${escapeHtml(button)}</a></p><p>${escapeHtml(outro)}</p>`,
  };
}
