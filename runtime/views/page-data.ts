/**
 * The helpers every page gets (docs/pages.md "Page data"; docs/spec.md 4.6,
 * 5.4, 7 rule 6): route URLs, asset URLs, the masked CSRF token (form field
 * and htmx header), flashed messages, field errors and old input, and the
 * caller's policies (`can`).
 *
 * Templates read them on `it` next to the handler's data (which wins on a
 * name clash). Values written with `<%~ %>` are already HTML; everything
 * else goes through `<%= %>` and is escaped.
 */
import { escapeHtml } from '../errors/html.js';
import type { PageSession } from './page-session.js';
import { BinderyError } from '../errors/bindery-error.js';

/** What pages need from the static assets (runtime/assets' manifest implements it). */
export interface AssetUrls {
  /**
   * The URL of an asset with its content hash: `app.css` → `/assets/app.css?v=1a2b3c4d5e6f`.
   * @throws {Error} when no such asset exists (the page fails to render, showing the name).
   */
  url(path: string): string;
}

/** The words of a page in the request's locale (docs/i18n.md "Views"). */
export interface PageWords {
  /** The request's locale, e.g. `de`. */
  readonly locale: string;
  /** The message `key` of the catalogs, ICU `values` filled in. */
  t(key: string, values?: Readonly<Record<string, unknown>>): string;
  /** A date through `Intl.DateTimeFormat` (default: medium date style). */
  formatDate(date: Date | number | string, options?: Intl.DateTimeFormatOptions): string;
  /** A number through `Intl.NumberFormat`. */
  formatNumber(value: number, options?: Intl.NumberFormatOptions): string;
}

/** The helpers on `it`. */
export interface PageHelpers extends PageWords {
  /** URL path of a named route: `it.url('notes.show', { id: 3 })`. */
  url(route: string, params?: Readonly<Record<string, string | number>>): string;
  /** URL of a static asset with `?v=<hash>`: `it.asset('app.css')`. */
  asset(path: string): string;
  /** The CSRF token masked with a fresh pad ('' on routes without a session). */
  csrfToken(): string;
  /** `<input type="hidden" name="_token" value="…">` for a form ('' without a session); write it with `<%~ %>`. */
  csrfField(): string;
  /** JSON for `hx-headers`: `{"X-CSRF-Token":"…"}` (`{}` without a session); write it with `<%= %>` inside a double-quoted attribute. */
  hxHeaders(): string;
  /** The status message flashed under `status` by the previous request, or `undefined`. */
  readonly status: string | undefined;
  /** Any value flashed by the previous request. */
  flashed(key: string): unknown;
  /** Field errors of the failed form that redirected here, by field name (empty when none). */
  readonly errors: Readonly<Record<string, string>>;
  /** The error of one field, or `undefined`. */
  error(name: string): string | undefined;
  /** The value a field had in the failed form (first value of a list), else `fallback` (default ''). */
  old(name: string, fallback?: string): string;
  /** Every value a list field had in the failed form, else `fallback` (default `[]`). */
  oldList(name: string, fallback?: readonly string[]): string[];
  /**
   * May the signed-in user do `action` (`documents.update`) to `row` — or,
   * without a row, to some row? To show or hide a button
   * (docs/authorization.md "In views"); the route itself is still checked.
   */
  can(action: string, row?: object): boolean;
}

/** What the helpers read from the request. */
export interface PageTarget {
  url(route: string, params?: Readonly<Record<string, string | number>>): string;
  /** The caller's policies, synchronously (runtime/authorization); absent when the app has none, and then `it.can` throws. */
  readonly can?: (action: string, row?: object) => boolean;
}

/** The words of a page without `i18n()`: English dates and numbers; `it.t` throws. */
const ENGLISH: PageWords = {
  locale: 'en',
  t(key) {
    throw new BinderyError(
      'BINDERY_SERVICE_NOT_SET_UP',
      `it.t(${JSON.stringify(key)}) needs i18n() set up: add i18n() to the setup list of app/main.ts (docs/i18n.md).`,
    );
  },
  formatDate: (date, options = { dateStyle: 'medium' }) =>
    new Intl.DateTimeFormat('en', options).format(date instanceof Date ? date : new Date(date)),
  formatNumber: (value, options) => new Intl.NumberFormat('en', options).format(value),
};

const NO_ERRORS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The helpers of one page render.
 * @param session the request's session, `undefined` on routes without the session middleware.
 * @param assets the app's assets, `undefined` when `assets()` is not set up (`asset()` then throws).
 * @param words the request's locale and translations (`it.t`, `it.formatDate`); default English, `it.t` throwing.
 */
export function pageHelpers(
  target: PageTarget,
  session: PageSession | undefined,
  assets: AssetUrls | undefined,
  words: PageWords = ENGLISH,
): PageHelpers {
  const errors = session?.errors ?? NO_ERRORS;
  const old = session?.oldInput ?? NO_ERRORS;
  const status = session?.flashed('status');
  const csrfToken = () => (session === undefined ? '' : session.csrfToken());
  return {
    locale: words.locale,
    t: (key, values) => words.t(key, values),
    formatDate: (date, options) => words.formatDate(date, options),
    formatNumber: (value, options) => words.formatNumber(value, options),
    url: (route, params) => target.url(route, params),
    asset(path) {
      if (assets === undefined)
        throw new BinderyError(
          'BINDERY_SERVICE_NOT_SET_UP',
          `it.asset(${JSON.stringify(path)}) needs assets() set up: add assets() to the setup list of app/main.ts.`,
        );
      return assets.url(path);
    },
    csrfToken,
    csrfField: () => (session === undefined ? '' : `<input type="hidden" name="_token" value="${escapeHtml(csrfToken())}">`),
    hxHeaders: () => (session === undefined ? '{}' : JSON.stringify({ 'X-CSRF-Token': csrfToken() })),
    status: typeof status === 'string' ? status : undefined,
    flashed: (key) => session?.flashed(key),
    errors,
    error: (name) => (Object.hasOwn(errors, name) ? errors[name] : undefined),
    old(name, fallback = '') {
      const v = Object.hasOwn(old, name) ? old[name] : undefined;
      if (typeof v === 'string') return v;
      if (Array.isArray(v) && v.length > 0) return v[0]!;
      return fallback;
    },
    can(action, row) {
      if (target.can === undefined)
        throw new BinderyError(
          'BINDERY_SERVICE_NOT_SET_UP',
          `it.can(${JSON.stringify(action)}) needs the app's policies: add authorization({ policies }) to the setup list of app/main.ts.`,
        );
      return target.can(action, row);
    },
    oldList(name, fallback = []) {
      const v = Object.hasOwn(old, name) ? old[name] : undefined;
      if (typeof v === 'string') return [v];
      if (Array.isArray(v)) return [...v];
      return [...fallback];
    },
  };
}
