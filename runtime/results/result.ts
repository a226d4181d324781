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
 * | {@link stream}           | 200 JSON array, written batch by batch |
 * | {@link respond}          | whatever it writes          |
 */
import type { FastifyReply } from 'fastify';

import type { ResultKind } from '../routing/route-table.js';
import type { ViewRenderer } from '../views/view-renderer.js';

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
  /**
   * The renderer of `view` when it is not the app's views folder: a setup
   * step's own views (the back office's, docs/back-office.md). Absent: the
   * app's views.
   */
  readonly renderer?: ViewRenderer;
}

/**
 * A 200 JSON array written batch by batch (docs/http.md "Unbounded answers"):
 * each row through the route's output serializer, so the body is byte for
 * byte the array an `ok` result of the same rows gives, without all of them
 * in memory at once.
 */
export interface StreamResult<T> {
  readonly [RESULT]: 'stream';
  /** The rows, a batch at a time (e.g. {@link keysetBatches}); read one batch ahead of the client at most. */
  readonly batches: AsyncIterable<readonly T[]> | Iterable<readonly T[]>;
  /** Called once when the answer ends; see {@link StreamOptions.onEnd}. */
  readonly onEnd?: (end: StreamEnd) => unknown;
}

/** How a streamed answer ended. */
export interface StreamEnd {
  /** Rows written to the client. */
  readonly rows: number;
  /** True when every batch was written; false when the client went away or reading or writing failed. */
  readonly complete: boolean;
}

/** Options of {@link stream}. */
export interface StreamOptions {
  /**
   * Called once when the answer ends, with how many rows it wrote. After the
   * last batch it is awaited **before** the array is closed (`]`), so a
   * client that read a whole body knows it ran; if it throws then, the
   * answer is cut short and the error logged. When the answer stops early it
   * is called with `complete: false`, and what it throws is logged.
   */
  readonly onEnd?: (end: StreamEnd) => unknown;
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
  | StreamResult<unknown>
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
  | (K extends 'stream' ? (T extends readonly (infer Row)[] ? StreamResult<Row> : never) : never)
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
 * A page rendered by `renderer` instead of the app's views (a setup step's
 * own views), with the same page helpers on `it` (CSRF, flashed errors and
 * old input, `can`) and the same buffering as {@link page}.
 * @param status HTTP status, default 200.
 */
export function pageOf(renderer: ViewRenderer, view: string, data: Record<string, unknown> = {}, status = 200): PageResult {
  return { [RESULT]: 'page', view, data, status, renderer };
}

/**
 * A 200 JSON array of every row of `batches`, written batch by batch with
 * backpressure, each row through the route's output serializer
 * (docs/http.md "Unbounded answers"; YAML `result: stream`). Memory holds
 * one batch (and what the socket buffers), however many rows there are;
 * the event loop is given back between batches and within a long one.
 * A failure before the first row is an ordinary error response; after the
 * first byte the connection is cut, so the client sees an incomplete array.
 * @param batches arrays of rows, in order: an async generator, or {@link keysetBatches}.
 * @example return stream(keysetBatches(db.selectFrom('documents').selectAll(), { key: 'id' }))
 */
export function stream<T>(batches: AsyncIterable<readonly T[]> | Iterable<readonly T[]>, options: StreamOptions = {}): StreamResult<T> {
  return options.onEnd === undefined ? { [RESULT]: 'stream', batches } : { [RESULT]: 'stream', batches, onEnd: options.onEnd };
}

/** True when `value` is a {@link StreamResult}. */
export function isStreamResult(value: unknown): value is StreamResult<unknown> {
  return isTaggedResult(value) && value[RESULT] === 'stream';
}

/**
 * The same streamed answer with every batch passed through `step` first
 * (the runtime's per-batch work: rows the caller may not view left out,
 * included relations read, file URLs signed).
 */
export function mapBatches<T, U>(result: StreamResult<T>, step: (rows: readonly T[]) => Promise<readonly U[]>): StreamResult<U> {
  const source = result.batches;
  async function* mapped(): AsyncGenerator<readonly U[]> {
    for await (const rows of source) yield await step(rows);
  }
  return result.onEnd === undefined
    ? { [RESULT]: 'stream', batches: mapped() }
    : { [RESULT]: 'stream', batches: mapped(), onEnd: result.onEnd };
}

/**
 * A custom responder that writes the response itself.
 * @example return respond((reply) => reply.code(202).header('content-type', 'text/csv').send(csv))
 */
export function respond(fn: (reply: FastifyReply) => unknown): Responder {
  return { [RESULT]: 'custom', respond: fn };
}
