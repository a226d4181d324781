/**
 * The debug error page (`APP_DEBUG=true`, never in production; docs/spec.md 7, rule 2):
 * the error chain with stacks, and the request with secrets redacted.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { inspect } from 'node:util';
import { docsOf, ERROR_CODES } from './codes.js';
import { escapeHtml, htmlDocument } from './html.js';
import { fieldErrorsHtml, type ErrorPage } from './html-page.js';
import { redactHeaders, redactUrl } from './redact.js';
import { statusPhrase } from './status.js';

/** The request as the debug page shows it. */
export interface DebugRequest {
  readonly method: string;
  /** The request URL (path and query); secret-looking query values are redacted. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** Name of the matched route, when there is one. */
  readonly route?: string;
}

/** What the debug page shows. */
export interface DebugPage extends ErrorPage {
  readonly error: Error;
  readonly request: DebugRequest;
}

/** At most this many causes are followed (cycles stop earlier). */
const MAX_CHAIN = 10;

/**
 * The error and its causes, outermost first, at most 10, stopping at a cycle.
 * Non-Error causes appear as they are.
 */
export function errorChain(error: Error): unknown[] {
  const chain: unknown[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current !== undefined && current !== null && !seen.has(current) && chain.length < MAX_CHAIN) {
    chain.push(current);
    seen.add(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}

/**
 * The debug page: status, detail, field errors, the error chain (name, code,
 * message, stack of each, and where a registered code is documented), and the request (method, URL, route, headers with
 * `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie` and
 * `X-CSRF-Token` redacted). Every value is escaped. Never throws.
 */
export function debugPageHtml(page: DebugPage): string {
  const title = `${page.status} ${statusPhrase(page.status)}`;
  const chain = errorChain(page.error)
    .map((item, i) => {
      const heading = i === 0 ? 'Error' : 'Caused by';
      if (!(item instanceof Error)) {
        return `<h2>${heading}: thrown value</h2>\n<pre>${escapeHtml(inspect(item, { depth: 3 }))}</pre>`;
      }
      const code = (item as Error & { code?: unknown }).code;
      const label = `${item.name}${typeof code === 'string' ? ` [${code}]` : ''}: ${item.message}`;
      const docs =
        typeof code === 'string' && code in ERROR_CODES ? `<p>Cause and fix: <code>${escapeHtml(docsOf(code))}</code></p>\n` : '';
      return `<h2>${heading}: ${escapeHtml(label)}</h2>\n${docs}<pre>${escapeHtml(item.stack ?? '(no stack)')}</pre>`;
    })
    .join('\n');
  const rows = redactHeaders(page.request.headers)
    .map(([name, value]) => `<tr><th>${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`)
    .join('\n');
  return htmlDocument(
    title,
    `<p class="status">${page.status} · debug mode (APP_DEBUG=true)</p>
<h1>${escapeHtml(statusPhrase(page.status))}</h1>
<p>${escapeHtml(page.detail)}</p>
${fieldErrorsHtml(page.errors)}${chain}
<h2>Request</h2>
<table>
<tr><th>Method</th><td>${escapeHtml(page.request.method)}</td></tr>
<tr><th>URL</th><td>${escapeHtml(redactUrl(page.request.url))}</td></tr>
<tr><th>Route</th><td>${escapeHtml(page.request.route ?? '(none)')}</td></tr>
<tr><th>Request ID</th><td>${escapeHtml(page.requestId)}</td></tr>
</table>
<h2>Headers</h2>
<table>
${rows}
</table>
<footer>Request ID: <code>${escapeHtml(page.requestId)}</code></footer>`,
  );
}
