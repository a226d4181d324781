/**
 * Errors → responses (docs/spec.md 7, rules 1–4; docs/spec.md 2.8).
 *
 * API clients (see `ClientKind.wantsJson`) get problem details
 * (`application/problem+json`); others an HTML error page, or with
 * `APP_DEBUG=true` for 5xx the debug page; a route whose group has its own
 * error format (`errors: lists`) answers in it instead (error-lists.ts).
 * Field errors are keyed by the
 * client's names in the input's field order. Every 5xx is logged with the
 * request ID (the request logger carries it). When the response has already
 * started, the error is logged and the connection aborted; when the client
 * went away, a 499 is logged and nothing is written. An observed request's
 * observation learns of the error (request-observer.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDefinition } from '../routing/route-table.js';
import { bodyKindOf } from '../binding/body-kind.js';
import { attributeName, clientName } from '../binding/client-names.js';
import { debugPageHtml } from '../errors/debug-page.js';
import { describeError, HIDDEN_DETAIL, type ErrorInfo } from '../errors/error-info.js';
import { errorPageHtml } from '../errors/html-page.js';
import { PROBLEM_CONTENT_TYPE, problemDetails } from '../errors/problem-details.js';
import { clientGone, logClientGone } from '../support/client-connection.js';
import type { ClientKind } from './context.js';
import { decideClientKind } from './client-kind.js';
import { requestLog } from './request-log.js';
import { observationOf } from './request-observer.js';
import { errorLists } from './error-lists.js';
import { i18nOf, localizeError, requestLocale, wordMessage } from './request-i18n.js';
import { HttpError } from '../errors/http-error.js';
import { statusPhrase } from '../errors/status.js';

const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';
const PROBLEM_HEADER = `${PROBLEM_CONTENT_TYPE}; charset=utf-8`;
const JSON_HEADER = 'application/json; charset=utf-8';

/**
 * Write the error response for `thrown` (or log and abort / log 499). Never throws.
 * @param route the matched route (maps field-error keys to client names), or `null`.
 * @param client the request's client kind when already decided.
 */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  thrown: unknown,
  debug: boolean,
  route: RouteDefinition | null,
  client?: ClientKind,
): void {
  // The request's child logger (requestLog) is made only when a line is written: a 4xx writes none.
  try {
    localizeError(request, reply, thrown);
    const info = localizedInfo(request, reply, describeError(thrown, debug));
    observationOf(request)?.failed(info.error, info.status);
    if (reply.raw.headersSent || reply.sent) {
      requestLog(request).error(
        { err: info.error, code: 'BINDERY_RESPONSE_ABORTED', cause_code: info.code },
        `request failed after the response had started; aborting the connection: ${info.error.message}`,
      );
      reply.raw.destroy();
      return;
    }
    if (clientGone(reply)) {
      logClientGone(requestLog(request), info.status >= 500 ? info.error : undefined);
      return;
    }
    if (info.status >= 500)
      requestLog(request).error(
        { err: info.error, code: info.code, statusCode: info.status },
        `request failed with ${info.status}: ${info.error.message}`,
      );
    const errors = info.fieldErrors === undefined ? undefined : clientFieldErrors(info.fieldErrors, route, request);
    reply.code(info.status);
    if (info.headers !== undefined) reply.headers(info.headers);
    const format = route?.errorFormat;
    if (format !== undefined) {
      // The group's own format (docs/errors.md "Error formats"), whoever the client is.
      reply.header('content-type', JSON_HEADER).send(JSON.stringify(errorLists(format, errors, info.detail)));
      return;
    }
    if ((client ?? decideClientKind(request.headers)).wantsJson) {
      const problem = problemDetails(info.status, info.detail, request.id, errors);
      const body = info.title === undefined ? problem : { ...problem, title: info.title };
      reply.header('content-type', PROBLEM_HEADER).send(JSON.stringify(body));
      return;
    }
    reply.header('content-type', HTML_CONTENT_TYPE).send(renderPage(info, request, route, errors, debug));
  } catch (err) {
    requestLog(request).error({ err, code: 'BINDERY_RESPONSE_ABORTED' }, 'writing the error response failed; aborting the connection');
    reply.raw.destroy();
  }
}

/** An error's description with its title and words in the request's locale (docs/i18n.md "Errors"). */
interface LocalizedInfo extends ErrorInfo {
  /** The status phrase in the request's locale; `undefined`: the English one. */
  readonly title?: string;
  readonly lang?: string;
  readonly requestIdLabel?: string;
}

/**
 * `info` with the title and a default detail (`http.detail.<code>`, or the
 * hidden 5xx detail) in the request's locale; as it is without `i18n()`.
 */
function localizedInfo(request: FastifyRequest, reply: FastifyReply, info: ErrorInfo): LocalizedInfo {
  const i18n = i18nOf(request);
  if (i18n === undefined) return info;
  const locale = requestLocale(request, reply)!;
  const statusKey = `http.status.${info.status}`;
  const title = i18n.text(locale, statusKey) ?? statusPhrase(info.status);
  const detailKey = info.detail === HIDDEN_DETAIL ? 'http.detail.hidden' : `http.detail.${info.code}`;
  const english = i18n.text(i18n.fallbackLocale, detailKey);
  let detail = info.detail;
  const own = info.error instanceof HttpError && info.error.message === info.detail ? info.error.detailMessage : undefined;
  if (own !== undefined) detail = wordMessage(i18n, locale, own);
  else if (english === info.detail) detail = i18n.t(locale, detailKey);
  else if (info.detail === statusPhrase(info.status)) detail = title;
  return { ...info, detail, title, lang: locale, requestIdLabel: i18n.t(locale, 'http.request_id') };
}

function renderPage(
  info: LocalizedInfo,
  request: FastifyRequest,
  route: RouteDefinition | null,
  errors: Record<string, string> | undefined,
  debug: boolean,
): string {
  const page = {
    status: info.status,
    detail: info.detail,
    requestId: request.id,
    ...(errors === undefined ? {} : { errors }),
    ...(info.title === undefined ? {} : { title: info.title, lang: info.lang, requestIdLabel: info.requestIdLabel }),
  };
  if (!debug || info.status < 500) return errorPageHtml(page);
  return debugPageHtml({
    ...page,
    error: info.error,
    request: { method: request.method, url: request.url, headers: request.headers, ...(route === null ? {} : { route: route.name }) },
  });
}

/**
 * Field errors keyed by the client's names: keys that are input fields of
 * `route` come first in field order, under the name the client used
 * (`:attribute` in their messages replaced); other keys follow as they are.
 */
export function clientFieldErrors(
  fieldErrors: Readonly<Record<string, string>>,
  route: RouteDefinition | null,
  request: FastifyRequest,
): Record<string, string> {
  const out: Record<string, string> = {};
  // Keys that are input fields first, in field order (a key counts when `fieldErrors` has a message of its own for it).
  let taken = 0;
  if (route !== null && route.fields.length > 0) {
    const bodyKind = bodyKindOf(request);
    for (const field of route.fields) {
      const message = Object.hasOwn(fieldErrors, field.key) ? fieldErrors[field.key] : undefined;
      if (message === undefined) continue;
      taken++;
      const name = clientName(field, bodyKind);
      out[name] = message.includes(':attribute') ? message.replaceAll(':attribute', attributeName(name)) : message;
    }
  }
  const keys = Object.keys(fieldErrors);
  if (taken === keys.length) return out;
  const fieldKeys = new Set(route?.fields.map((f) => f.key));
  for (const key of keys) {
    const message = fieldErrors[key];
    if (message === undefined || fieldKeys.has(key)) continue;
    const name = nestedClientName(key, route, request);
    out[name] = message.includes(':attribute')
      ? message.replaceAll(':attribute', attributeName(name.slice(name.lastIndexOf('.') + 1)))
      : message;
  }
  return out;
}

/**
 * The client's path of a nested field's key path (`user.email` → the JSON
 * name of the object field `user`, then the nested keys, which are their
 * own JSON names; docs/schema-language.md "Nested input"); any other key as it is.
 */
function nestedClientName(key: string, route: RouteDefinition | null, request: FastifyRequest): string {
  const dot = key.indexOf('.');
  if (dot === -1 || route === null) return key;
  const top = key.slice(0, dot);
  const field = route.fields.find((f) => f.key === top && f.fields !== undefined);
  return field === undefined ? key : `${clientName(field, bodyKindOf(request))}${key.slice(dot)}`;
}
