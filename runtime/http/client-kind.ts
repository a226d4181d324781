/**
 * What kind of client sent a request (docs/spec.md 7, rules 2 and 6), decided
 * once per request (the context computes it on first use and keeps it).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ClientKind } from './context.js';

/**
 * Decide the {@link ClientKind} from request headers. Never throws.
 *
 * - `wantsJson`: `Accept` lists `application/json` or a `+json` type (with a
 *   non-zero q), or the body is JSON (`Content-Type` `application/json` or
 *   `+json`), or `X-Requested-With: XMLHttpRequest` (any case), or the
 *   request carries a token: `Authorization` with a scheme other than those
 *   of a browser's own HTTP authentication (`Bearer`, a group's `Token`;
 *   not `Basic`, `Digest`, `Negotiate`, `NTLM`). A browser never sends a
 *   token by itself, so whoever does is an API client, whatever its
 *   `Accept` (docs/errors.md "Who gets problem details, who gets an HTML
 *   page").
 * - `isBrowser`: `Sec-Fetch-Mode: navigate`, or `Accept` lists `text/html`.
 * - `isHtmx` / `isHtmxBoosted`: `HX-Request: true` / `HX-Boosted: true`.
 */
export function decideClientKind(headers: IncomingHttpHeaders): ClientKind {
  const accept = headers.accept;
  const contentType = headers['content-type'];
  const requestedWith = headers['x-requested-with'];
  const fetchMode = headers['sec-fetch-mode'];
  const htmx = headers['hx-request'];
  const boosted = headers['hx-boosted'];
  const authorization = headers.authorization;
  // A flag, not the header, joins the headers compared below: tokens differ from client to client.
  const token = authorization !== undefined && carriesToken(authorization);
  // Clients send the same few header sets again and again: the last decision is kept (a frozen, shared object).
  const last = lastDecision;
  if (
    last !== null &&
    last.token === token &&
    last.accept === accept &&
    last.contentType === contentType &&
    last.requestedWith === requestedWith &&
    last.fetchMode === fetchMode &&
    last.htmx === htmx &&
    last.boosted === boosted
  )
    return last.kind;
  const wantsJson =
    token ||
    (accept !== undefined && acceptLists(accept, isJsonType)) ||
    (contentType !== undefined && isJsonType(mediaType(contentType))) ||
    (typeof requestedWith === 'string' && requestedWith.toLowerCase() === 'xmlhttprequest');
  const isBrowser = fetchMode === 'navigate' || (accept !== undefined && acceptLists(accept, isHtmlType));
  const kind: ClientKind = Object.freeze({
    wantsJson,
    isBrowser,
    isHtmx: htmx === 'true',
    isHtmxBoosted: boosted === 'true',
  });
  lastDecision = { token, accept, contentType, requestedWith, fetchMode, htmx, boosted, kind };
  return kind;
}

/** The headers of the last decision and the decision (see {@link decideClientKind}). */
interface Decision {
  readonly token: boolean;
  readonly accept: string | undefined;
  readonly contentType: string | undefined;
  readonly requestedWith: string | string[] | undefined;
  readonly fetchMode: string | string[] | undefined;
  readonly htmx: string | string[] | undefined;
  readonly boosted: string | string[] | undefined;
  readonly kind: ClientKind;
}

let lastDecision: Decision | null = null;

const isHtmlType = (type: string): boolean => type === 'text/html';

/**
 * The schemes a browser sends `Authorization` with by itself, answering a
 * server's challenge (RFC 7617, 7616, 4559); lower case.
 */
const BROWSER_SCHEMES: ReadonlySet<string> = new Set(['basic', 'digest', 'negotiate', 'ntlm']);

/** Whether an `Authorization` value carries a token: a scheme (the first word) that is not one of {@link BROWSER_SCHEMES}. */
function carriesToken(authorization: string): boolean {
  // Most API requests say Bearer: known without cutting the scheme out (no string made).
  if (saysBearer(authorization)) return true;
  const space = authorization.indexOf(' ');
  const scheme = (space === -1 ? authorization : authorization.slice(0, space)).toLowerCase();
  return scheme !== '' && !BROWSER_SCHEMES.has(scheme);
}

/** `bearer` in character codes, lower case. */
const BEARER = [98, 101, 97, 114, 101, 114];

/** Whether the value's scheme is `Bearer`, in any case (`| 0x20` lowers an ASCII letter). */
function saysBearer(value: string): boolean {
  if (value.length < 6 || (value.length > 6 && value.charCodeAt(6) !== 32)) return false;
  for (let i = 0; i < 6; i++) if ((value.charCodeAt(i) | 0x20) !== BEARER[i]) return false;
  return true;
}

/** True for `application/json` and any `type/subtype+json` (lower case, without parameters). */
export function isJsonType(type: string): boolean {
  return type === 'application/json' || (type.endsWith('+json') && type.includes('/'));
}

function mediaType(value: string): string {
  const semi = value.indexOf(';');
  return (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase();
}

/** True when one media range of `accept` satisfies `test` and is not refused with `q=0`. */
function acceptLists(accept: string, test: (type: string) => boolean): boolean {
  // Walks the header in place: no arrays of ranges and parameters per request.
  let start = 0;
  while (start < accept.length) {
    let end = accept.indexOf(',', start);
    if (end === -1) end = accept.length;
    const semi = accept.indexOf(';', start);
    const typeEnd = semi !== -1 && semi < end ? semi : end;
    if (test(accept.slice(start, typeEnd).trim().toLowerCase()) && (typeEnd === end || qAllows(accept.slice(typeEnd + 1, end))))
      return true;
    start = end + 1;
  }
  return false;
}

/** False when the media range's parameters (`;`-separated, after the type) hold `q=0` (or any q that is not above 0). */
function qAllows(parameters: string): boolean {
  for (const parameter of parameters.split(';')) {
    const p = parameter.trim().toLowerCase();
    if (p.startsWith('q=')) return Number(p.slice(2)) > 0;
  }
  return true;
}
