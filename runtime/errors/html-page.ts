/**
 * The HTML error page for browsers (docs/spec.md 7, rule 2).
 */
import { escapeHtml, htmlDocument } from './html.js';
import { statusPhrase } from './status.js';

/** What the error page shows. */
export interface ErrorPage {
  readonly status: number;
  /** Text for the user (already hidden for 5xx unless debug). */
  readonly detail: string;
  readonly requestId: string;
  /** Field errors by the client's names. */
  readonly errors?: Readonly<Record<string, string>>;
  /** The status phrase in the page's language (default the English one). */
  readonly title?: string;
  /** The page's language, `<html lang>` (default `en`). */
  readonly lang?: string;
  /** The words before the request ID (default `Request ID:`). */
  readonly requestIdLabel?: string;
}

/**
 * A small self-contained HTML page: status, phrase, detail, field errors and
 * the request ID. Every value is escaped. Never throws.
 */
export function errorPageHtml(page: ErrorPage): string {
  const phrase = page.title ?? statusPhrase(page.status);
  return htmlDocument(
    `${page.status} ${phrase}`,
    `<p class="status">${page.status}</p>
<h1>${escapeHtml(phrase)}</h1>
<p>${escapeHtml(page.detail)}</p>
${fieldErrorsHtml(page.errors)}<footer>${escapeHtml(page.requestIdLabel ?? 'Request ID:')} <code>${escapeHtml(page.requestId)}</code></footer>`,
    page.lang,
  );
}

/** The list of field errors, or an empty string. */
export function fieldErrorsHtml(errors: Readonly<Record<string, string>> | undefined): string {
  if (errors === undefined) return '';
  const items = Object.entries(errors).map(([name, message]) => `<li><strong>${escapeHtml(name)}</strong>: ${escapeHtml(message)}</li>`);
  return items.length === 0 ? '' : `<ul class="errors">\n${items.join('\n')}\n</ul>\n`;
}
