/**
 * Handler results → responses (docs/spec.md 4.5 "Handler results").
 *
 * | Returned | Response |
 * |---|---|
 * | plain value | 200 JSON through the route's output serializer (lists item by item; a list route's page as `{ data, next }`; included relations row by row) |
 * | `created(body, { location })` | 201 JSON, `Location` |
 * | `json(body, status, headers)` | that status, JSON |
 * | `noContent()`, `undefined` | 204 |
 * | `redirect(url)`, `redirectToRoute(name, params)` | 303 with `Location` |
 * | `text(body, status, type)` | plain text |
 * | `page(view, data, status)` | HTML rendered fully first, then written; `Vary: HX-Request` |
 * | `stream(batches)` | 200 JSON array written batch by batch (stream/write-stream.ts) |
 * | `respond(fn)` | whatever `fn` writes |
 *
 * Before each write, a client that went away is logged (499) and nothing is written.
 */
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { OutputPlan, RouteDefinition } from '../routing/route-table.js';
import { BinderyError } from '../errors/bindery-error.js';
import { clientGone, logClientGone } from '../support/client-connection.js';
import { addVary } from '../support/vary.js';
import { pageHelpers, type AssetUrls, type PageTarget, type PageWords } from '../views/page-data.js';
import type { I18n, MessageValues } from '../i18n/translator.js';
import type { Policies, PolicySubject } from '../authorization/policies.js';
import { GUEST } from '../context/request-auth.js';
import type { PageSession } from '../views/page-session.js';
import type { ViewRenderer } from '../views/view-renderer.js';
import { isLocalPath } from './local-path.js';
import { serializeRouteOutput } from './list/list-output.js';
import { sendStream } from './stream/write-stream.js';
import { RESULT, isTaggedResult, type PageResult, type RedirectResult, type Responder } from './result.js';

/** Content type of JSON results. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const TEXT_CONTENT_TYPE = 'text/plain; charset=utf-8';
const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';

/** What a result needs from the request it answers. */
export interface ResultTarget {
  readonly route: RouteDefinition;
  readonly reply: FastifyReply;
  readonly log: FastifyBaseLogger;
  url(route: string, params?: Readonly<Record<string, string | number>>): string;
  /**
   * The request's session on routes with the session middleware: pages read
   * the CSRF token, flash, errors and old input from it, and it is written
   * once the page is rendered (docs/pages.md).
   */
  readonly sessionState?: PageSession | undefined;
  /** The app's services; pages read `assets` (runtime/assets) for asset URLs and `policies` for `it.can`. */
  readonly services?: object;
  /** Who asks (`ctx.auth`), for `it.can` in pages. */
  readonly auth?: PolicySubject;
  /** The request's locale (`ctx.locale`), read by pages of an app with `i18n()` (docs/i18n.md "Views"). */
  readonly locale?: string;
}

/** What results need from the server. */
export interface ResponderEnv {
  /** Renderer of page results; `null` when no views folder was configured. */
  readonly views: ViewRenderer | null;
  /** Copy the standard response headers onto `reply.raw`, for custom responders that write the raw response. */
  readonly copyHeadersToRaw: (reply: FastifyReply) => void;
}

/**
 * Write `result` as the response of `target`.
 * @returns `undefined` when written synchronously, else a promise (pages, streamed answers, custom responders).
 * @throws {BinderyError} `BINDERY_UNKNOWN_ROUTE` (redirect to an unknown route), `BINDERY_VIEW_FAILED` (render error; nothing was written), `BINDERY_EMPTY_RESPONSE` (a custom responder wrote nothing), or a serializer's error.
 */
export function sendResult(target: ResultTarget, env: ResponderEnv, result: unknown): Promise<void> | undefined {
  if (result === undefined) return sendEmpty(target, 204);
  if (!isTaggedResult(result)) return sendJson(target, 200, result);
  switch (result[RESULT]) {
    case 'json':
      if (result.headers !== undefined) target.reply.headers(result.headers);
      return sendJson(target, result.status, result.body);
    case 'created':
      if (result.location !== undefined) target.reply.header('location', result.location);
      return sendJson(target, 201, result.body);
    case 'noContent':
      return sendEmpty(target, 204);
    case 'redirect':
      target.reply.header('location', redirectUrl(target, result));
      return sendEmpty(target, 303);
    case 'text':
      return send(target, result.status, result.contentType ?? TEXT_CONTENT_TYPE, result.body);
    case 'page':
      return sendPage(target, env, result);
    case 'stream':
      return sendStream(target, result);
    case 'custom':
      return sendCustom(target, env, result);
    default:
      throw new Error(
        `Route "${target.route.name}" returned an unknown tagged result ${JSON.stringify(String((result as { [RESULT]: unknown })[RESULT]))}.`,
      );
  }
}

/**
 * Serialize a handler's value through the route's output plan (lists item by
 * item). A shape's serializer takes the value the plan declares: a list
 * when `array`, else the whole value (docs/schema-language.md "Output shapes").
 * @throws {TypeError} when a shape output declared as a list is not one.
 */
export function serializeOutput(output: OutputPlan | null, value: unknown): unknown {
  if (output === null) return value;
  if (output.shape !== undefined) {
    if (!output.array) return output.serialize(value);
    if (!Array.isArray(value))
      throw new TypeError(`The handler must return a list of ${output.shape}, got ${value === null ? 'null' : typeof value}.`);
    return value.map(output.serialize);
  }
  return Array.isArray(value) ? value.map(output.serialize) : output.serialize(value);
}

function sendJson(target: ResultTarget, status: number, value: unknown): undefined {
  // A shape output is written from the shape, also on a list route whose handler builds it from the page.
  const out =
    (target.route.list === undefined && target.route.include === undefined) || target.route.output?.shape !== undefined
      ? serializeOutput(target.route.output, value)
      : serializeRouteOutput(target.route, value);
  const reply = target.reply;
  if (clientGone(reply)) {
    logClientGone(target.log);
    return undefined;
  }
  reply.code(status);
  if (isJsonContainer(out)) {
    // Fastify's own JSON path: `application/json; charset=utf-8`, serialized once; a serializer error reaches the error handler.
    reply.send(out);
  } else {
    // Strings, numbers, Dates, buffers…: Fastify would send some of these as text or bytes.
    reply.header('content-type', JSON_CONTENT_TYPE).send(JSON.stringify(out) ?? 'null');
  }
  return undefined;
}

/** A plain object or an array: what Fastify serializes as JSON by itself. */
function isJsonContainer(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function send(target: ResultTarget, status: number, contentType: string, payload: string): undefined {
  const reply = target.reply;
  if (clientGone(reply)) {
    logClientGone(target.log);
    return undefined;
  }
  reply.code(status).header('content-type', contentType).send(payload);
  return undefined;
}

function sendEmpty(target: ResultTarget, status: number): undefined {
  const reply = target.reply;
  if (clientGone(reply)) {
    logClientGone(target.log);
    return undefined;
  }
  reply.code(status).send();
  return undefined;
}

/**
 * The `Location` of a redirect result: a route's URL, a path on this site,
 * or (external) an absolute http(s) URL; non-ASCII characters percent-encoded.
 * @throws {BinderyError} `BINDERY_UNSAFE_REDIRECT` for any other target.
 */
function redirectUrl(target: ResultTarget, result: RedirectResult): string {
  if (typeof result.to !== 'string') return target.url(result.to.route, result.to.params);
  const to = result.to.replace(/[^\x00-\x7f]/gu, (c) => encodeURIComponent(c));
  if (result.external === true) {
    if (isAbsoluteWebUrl(to)) return to;
    throw new BinderyError(
      'BINDERY_UNSAFE_REDIRECT',
      `Route "${target.route.name}" returned redirectExternal(${JSON.stringify(result.to)}); it takes an absolute http: or https: URL.`,
    );
  }
  if (isLocalPath(to)) return to;
  throw new BinderyError(
    'BINDERY_UNSAFE_REDIRECT',
    `Route "${target.route.name}" returned redirect(${JSON.stringify(result.to)}), which is not a path on this site; redirect() only goes to paths starting with one "/". Use localPathOr(target, fallback) for a target the request supplies, or redirectExternal(url) to leave the site on purpose.`,
  );
}

function isAbsoluteWebUrl(text: string): boolean {
  if (/[\s\x00-\x1f\x7f\\]/.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '';
  } catch {
    return false;
  }
}

async function sendPage(target: ResultTarget, env: ResponderEnv, result: PageResult): Promise<void> {
  const views = result.renderer ?? env.views;
  if (views === null) {
    throw new BinderyError(
      'BINDERY_VIEW_FAILED',
      `Route "${target.route.name}" returned the page "${result.view}", but no views folder is configured (viewsDir).`,
    );
  }
  const session = target.sessionState;
  const assets = (target.services as { assets?: AssetUrls } | undefined)?.assets;
  const page = await pagePolicies(target);
  let html: string;
  try {
    html = await views.render(result.view, { ...pageHelpers(page, session, assets, pageWords(target)), ...result.data });
  } catch (err) {
    throw new BinderyError(
      'BINDERY_VIEW_FAILED',
      `The view "${result.view}" of route "${target.route.name}" could not be rendered: ${(err as Error)?.message ?? String(err)}`,
      { cause: err },
    );
  } finally {
    // Write the session with what rendering stored (a new session's CSRF token), before the page.
    if (session !== undefined) await session.finishRender();
  }
  // A page may answer htmx requests differently (docs/spec.md 4.6).
  addVary(target.reply, 'HX-Request');
  send(target, result.status, HTML_CONTENT_TYPE, html);
}

/**
 * The page's request with a synchronous `can` (docs/authorization.md "In
 * views"): the user is loaded before rendering, so the view's checks need no promise.
 */
/** The page's words in the request's locale with `i18n()` (`services.i18n`), else `undefined` (English). */
function pageWords(target: ResultTarget): PageWords | undefined {
  const i18n = (target.services as { i18n?: I18n } | undefined)?.i18n;
  if (i18n === undefined) return undefined;
  const locale = target.locale ?? i18n.defaultLocale;
  return {
    locale,
    t: (key, values) => i18n.t(locale, key, values as MessageValues | undefined),
    formatDate: (date, options) => i18n.formatDate(locale, date, options),
    formatNumber: (value, options) => i18n.formatNumber(locale, value, options),
  };
}

async function pagePolicies(target: ResultTarget): Promise<PageTarget> {
  const policies = (target.services as { policies?: Policies } | undefined)?.policies;
  if (policies === undefined) return target;
  const auth = target.auth ?? GUEST;
  const user = auth.id === null ? null : await auth.user();
  return {
    url: (route, params) => target.url(route, params),
    can: (action, row) => policies.decideNow(auth, user, action, row as Readonly<Record<string, unknown>> | undefined),
  };
}

async function sendCustom(target: ResultTarget, env: ResponderEnv, result: Responder): Promise<void> {
  const reply = target.reply;
  if (clientGone(reply)) {
    logClientGone(target.log);
    return;
  }
  env.copyHeadersToRaw(reply);
  await result.respond(reply);
  if (!reply.sent && !reply.raw.headersSent) {
    throw new BinderyError(
      'BINDERY_EMPTY_RESPONSE',
      `The custom responder of route "${target.route.name}" resolved without writing a response; call reply.send(...) (or write reply.raw) before its promise resolves.`,
    );
  }
}
