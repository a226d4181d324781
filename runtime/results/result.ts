/**
 * Handler results (docs/spec.md 4.5, "Handler results").
 *
 * A handler returns a plain value (200 JSON), `undefined` (204) or one of the
 * tagged results built by the constructors below. The runtime turns each into
 * a response; handlers never write to the reply themselves except through
 * {@link respond}.
 *
 * | Returned                 | Response                    |
 * |--------------------------|-----------------------------|
 * | any value                | 200 JSON                    |
 * | {@link created}          | 201 JSON (+ `Location`)     |
 * | {@link json}             | that status, JSON           |
 * | {@link noContent}, nothing | 204                       |
 * | {@link redirect}, {@link redirectToRoute} | 303        |
 * | {@link text}             | plain text with a status    |
 * | {@link page}             | HTML, rendered into a buffer first |
 * | {@link respond}          | whatever it writes          |
 */
import type { FastifyReply } from 'fastify';

import type { ResultKind } from '../routing/route-table.js';

export type { ResultKind };

/** Brand that marks tagged results; plain values never carry it. */
export const RESULT: unique symbol = Symbol.for('bindery.result');

/** JSON with an explicit status. `body` is serialized by the route's output plan. */
export interface JsonResult<T> {
  readonly [RESULT]: 'json';
  readonly status: number;
  readonly body: T;
  readonly headers?: Readonly<Record<string, string>>;
}

/** 201 JSON; `location` becomes the `Location` header. */
export interface CreatedResult<T> {
  readonly [RESULT]: 'created';
  readonly body: T;
  readonly location?: string;
}

/** 204 without a body. */
export interface NoContentResult {
  readonly [RESULT]: 'noContent';
}

/** 303 See Other to a path on this site, a named route, or (`external`) another site. */
export interface RedirectResult {
  readonly [RESULT]: 'redirect';
  readonly to: string | { readonly route: string; readonly params?: Readonly<Record<string, string | number>> };
  /** Set by {@link redirectExternal}: `to` is an absolute http(s) URL that may leave the site. */
  readonly external?: true;
}

/** Plain text with a status. */
export interface TextResult {
  readonly [RESULT]: 'text';
  readonly status: number;
  readonly body: string;
  /** Defaults to `text/plain; charset=utf-8`. */
  readonly contentType?: string;
}

/** An HTML page rendered from a view into a buffer, written only when rendering succeeded. */
export interface PageResult {
  readonly [RESULT]: 'page';
  /** View name relative to the app's views folder, without extension (e.g. `notes/new`). */
  readonly view: string;
  readonly data: Readonly<Record<string, unknown>>;
  readonly status: number;
}

/**
 * A custom responder: writes the response itself through the Fastify reply.
 * What `respond` returns is awaited (a promise, or the reply itself, which
 * resolves once the response has finished); it must have started the
 * response by then.
 */
export interface Responder {
  readonly [RESULT]: 'custom';
  readonly respond: (reply: FastifyReply) => unknown;
}

/** Every tagged result. */
export type TaggedResult =
  | JsonResult<unknown>
  | CreatedResult<unknown>
  | NoContentResult
  | RedirectResult
  | TextResult
  | PageResult
  | Responder;

/** Results any handler may return whatever its declared kind (redirects, pages, custom responders). */
export type AnyRouteResult = RedirectResult | PageResult | TextResult | Responder;

/**
 * What a handler of a given declared kind may return, for output type `T`.
 * Used by the generated handler contracts (`generated/handlers.ts`).
 */
export type ResultFor<K extends ResultKind, T> =
  | (K extends 'ok' ? T | JsonResult<T> : never)
  | (K extends 'created' ? CreatedResult<T> | JsonResult<T> : never)
  | (K extends 'noContent' ? void | NoContentResult : never)
  | AnyRouteResult;

/** True when `value` is one of the tagged results. */
export function isTaggedResult(value: unknown): value is TaggedResult {
  return typeof value === 'object' && value !== null && RESULT in value;
}

/**
 * 200 (or `status`) JSON. `body` goes through the route's output serializer.
 * @param status HTTP status, default 200.
 * @example return json(note, 202)
 */
export function json<T>(body: T, status = 200, headers?: Record<string, string>): JsonResult<T> {
  return headers ? { [RESULT]: 'json', status, body, headers } : { [RESULT]: 'json', status, body };
}

/**
 * 201 Created JSON, with `Location` when `location` is given.
 * @example return created(note, { location: `/notes/${note.id}` })
 */
export function created<T>(body: T, options: { location?: string } = {}): CreatedResult<T> {
  return options.location === undefined ? { [RESULT]: 'created', body } : { [RESULT]: 'created', body, location: options.location };
}

/** 204 No Content. Returning nothing has the same effect. */
export function noContent(): NoContentResult {
  return { [RESULT]: 'noContent' };
}

/**
 * 303 See Other to a path on this site (docs/http.md "Redirects").
 * Only a path starting with one `/` is sent: `//host`, `/\host`, absolute
 * URLs and control characters are refused when the response is written
 * (500, `BINDERY_UNSAFE_REDIRECT`), so a target taken from the request can
 * never send the browser to another site. For a target a request supplies,
 * use `localPathOr(target, fallback)`; to leave the site on purpose (an
 * OAuth provider), {@link redirectExternal}.
 * @example return redirect('/dashboard')
 */
export function redirect(url: string): RedirectResult {
  return { [RESULT]: 'redirect', to: url };
}

/**
 * 303 See Other to another site: `url` must be an absolute `http:` or
 * `https:` URL (checked when the response is written: 500,
 * `BINDERY_UNSAFE_REDIRECT`). Never pass a URL the request chose.
 * @example return redirectExternal(provider.authorizeUrl)
 */
export function redirectExternal(url: string): RedirectResult {
  return { [RESULT]: 'redirect', to: url, external: true };
}

/**
 * 303 See Other to a named route, filling its `{param}` wildcards.
 * The runtime throws at response time when the route or a parameter is unknown.
 * @example return redirectToRoute('notes.show', { id: note.id })
 */
export function redirectToRoute(route: string, params: Record<string, string | number> = {}): RedirectResult {
  return { [RESULT]: 'redirect', to: { route, params } };
}

/**
 * Plain text with a status (default 200), `text/plain; charset=utf-8` unless `contentType` is given.
 * @example return text('pong')
 */
export function text(body: string, status = 200, contentType?: string): TextResult {
  return contentType === undefined ? { [RESULT]: 'text', status, body } : { [RESULT]: 'text', status, body, contentType };
}

/**
 * An HTML page from a view of the app (`app/views/<view>.eta`), rendered into a
 * buffer: a render error gives an error page, never half a page.
 * @param status HTTP status, default 200.
 * @example return page('notes/new', { title: 'New note' })
 */
export function page(view: string, data: Record<string, unknown> = {}, status = 200): PageResult {
  return { [RESULT]: 'page', view, data, status };
}

/**
 * A custom responder that writes the response itself.
 * @example return respond((reply) => reply.code(202).header('content-type', 'text/csv').send(csv))
 */
export function respond(fn: (reply: FastifyReply) => unknown): Responder {
  return { [RESULT]: 'custom', respond: fn };
}
