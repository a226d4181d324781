/**
 * Method override (docs/spec.md 4, top: "a POST with _method of PUT, PATCH or
 * DELETE (in the query or a URL-encoded body) is routed with that method;
 * multipart bodies are not read for it … It runs before route selection.").
 *
 * Runs in the HTTP server's request listener, before Fastify routes:
 *
 * 1. Only POST requests are looked at; everything else passes untouched.
 * 2. `?_method=` in the query wins: `req.method` is rewritten at once.
 * 3. Otherwise an URL-encoded POST with a `Content-Length` (1 byte to
 *    HTTP_MAX_BODY) has its body read here until `Content-Length` bytes
 *    arrived, then the bytes are put back on the request stream with
 *    `pause()` + `unshift()` — before the stream can emit `end` — so
 *    Fastify's own form parser reads the body as if nothing happened. No
 *    Fastify hook is involved: requests that are not URL-encoded POSTs pay
 *    one string comparison.
 *
 * Values are case-insensitive (`put` works); any other value is ignored and
 * the request stays a POST. Multipart bodies are never read for `_method`,
 * nor chunked URL-encoded bodies (no `Content-Length`; browsers always send
 * one): put `?_method=` in the form's action for those.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isUrlEncoded } from '../binding/body-kind.js';

const OVERRIDES: ReadonlySet<string> = new Set(['PUT', 'PATCH', 'DELETE']);

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** The target method of `?_method=…` in `url` (PUT, PATCH or DELETE), or `undefined`. Never throws. */
export function queryOverride(url: string): string | undefined {
  const q = url.indexOf('?');
  if (q === -1 || url.indexOf('_method', q) === -1) return undefined;
  return validOverride(new URLSearchParams(url.slice(q + 1)).get('_method'));
}

function validOverride(value: string | null): string | undefined {
  if (value === null) return undefined;
  const upper = value.toUpperCase();
  return OVERRIDES.has(upper) ? upper : undefined;
}

const NAME = Buffer.from('_method=');

/**
 * The first `_method` value of a URL-encoded body, found with `indexOf`
 * instead of parsing the whole body (a 10 MB form costs a millisecond, not
 * a parse). The name must be written as is (`_method=`, as browsers send
 * it); the value is percent-decoded (`+` as a space). `null` when absent.
 */
export function bodyOverride(body: Buffer): string | null {
  for (let at = body.indexOf(NAME); at !== -1; at = body.indexOf(NAME, at + 1)) {
    if (at !== 0 && body[at - 1] !== 0x26) continue;
    const start = at + NAME.length;
    const end = body.indexOf(0x26, start);
    // An override is a short word: a longer value is no override (and is not decoded).
    if ((end === -1 ? body.length : end) - start > 32) return null;
    const raw = body.toString('latin1', start, end === -1 ? body.length : end).replace(/\+/g, ' ');
    try {
      return decodeURIComponent(raw);
    } catch {
      return null;
    }
  }
  return null;
}

/** Method override for a server whose bodies are limited to `maxBodyBytes` (see the module comment). */
export class MethodOverride {
  readonly #maxBodyBytes: number;

  /** @param maxBodyBytes HTTP_MAX_BODY in bytes: a larger body is not read here (Fastify answers 413). */
  constructor(maxBodyBytes: number) {
    this.#maxBodyBytes = maxBodyBytes;
  }

  /**
   * The request listener prelude: applies the override, then calls `next`
   * (Fastify's handler) with the same request and response.
   */
  handle(req: IncomingMessage, res: ServerResponse, next: Listener): void {
    if (req.method !== 'POST') {
      next(req, res);
      return;
    }
    const fromQuery = queryOverride(req.url ?? '/');
    if (fromQuery !== undefined) {
      req.method = fromQuery;
      next(req, res);
      return;
    }
    const length = Number(req.headers['content-length']);
    if (!(length > 0 && length <= this.#maxBodyBytes) || !isUrlEncoded(req.headers['content-type'])) {
      next(req, res);
      return;
    }
    readThenReplay(req, res, length, next);
  }
}

/** Read `length` bytes of `req`, find `_method`, put the bytes back, then call `next`. */
function readThenReplay(req: IncomingMessage, res: ServerResponse, length: number, next: Listener): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const onData = (chunk: Buffer): void => {
    chunks.push(chunk);
    size += chunk.length;
    if (size < length) return;
    req.removeListener('data', onData);
    req.removeListener('error', onError);
    // Still inside the last 'data' event: `end` cannot have been emitted, and
    // will not be while the unshifted bytes are unread.
    req.pause();
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
    req.unshift(body);
    const method = validOverride(bodyOverride(body));
    if (method !== undefined) req.method = method;
    next(req, res);
  };
  const onError = (): void => {
    req.removeListener('data', onData);
    res.destroy();
  };
  req.on('data', onData);
  req.on('error', onError);
}
