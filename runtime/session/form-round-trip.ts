/**
 * The form round trip (docs/spec.md 7 rule 6; docs/sessions.md "Form round
 * trip"): a browser form that fails validation is sent back to the page it
 * came from, with the field errors and the values typed flashed for that
 * page.
 */
import type { FastifyRequest } from 'fastify';
import { isUrlEncoded } from '../binding/body-kind.js';
import { MultipartBody } from '../binding/multipart.js';
import { describeError } from '../errors/error-info.js';
import type { RequestContext } from '../http/context.js';
import { clientFieldErrors } from '../http/error-response.js';
import { sameHostPath } from '../results/local-path.js';

/** Form fields never flashed as old input: the CSRF token and the method override. */
const NEVER_FLASHED: ReadonlySet<string> = new Set(['_token', '_method']);
/** Names containing these (any case) are never flashed (docs/spec.md 7 rule 6). */
const SECRET_NAME = /password|secret|token/i;

/**
 * Whether a failure of this request goes back to the form:
 * not GET or HEAD; a validation failure (422, or 400 with field errors); a
 * browser (`Sec-Fetch-Mode: navigate` or `Accept` listing `text/html` —
 * `Accept: *\/*` alone is not one) that does not want JSON; not htmx unless
 * boosted (a boosted htmx request counts as a browser).
 * @returns the field errors (input keys) when it does, else `undefined`.
 */
export function roundTripErrors(ctx: RequestContext, error: unknown): Readonly<Record<string, string>> | undefined {
  const method = ctx.request.method;
  if (method === 'GET' || method === 'HEAD') return undefined;
  const info = describeError(error, false);
  if (!(info.status === 422 || (info.status === 400 && info.fieldErrors !== undefined))) return undefined;
  const client = ctx.client;
  if (client.wantsJson) return undefined;
  if (client.isHtmx ? !client.isHtmxBoosted : !client.isBrowser) return undefined;
  return info.fieldErrors ?? {};
}

/**
 * Flash the errors (by client names, in field order) and the posted values,
 * and name the page to go back to.
 * @returns the redirect target: the Referer's path and query when it is on this host, else `/`.
 */
export function flashRoundTrip(ctx: RequestContext, fieldErrors: Readonly<Record<string, string>>): string {
  const errors = clientFieldErrors(fieldErrors, ctx.route, ctx.request);
  ctx.session.flashFormFailure(errors, oldInput(ctx.request));
  return backTarget(ctx.request);
}

/**
 * The posted form values to show again: URL-encoded or multipart text
 * fields as typed (raw text, so a value that failed conversion comes back
 * as it was), without `_token`, `_method` and names containing password,
 * secret or token. Files are never kept. A JSON body gives none.
 */
export function oldInput(request: FastifyRequest): Record<string, string | string[]> {
  const body = request.body;
  let fields: Record<string, unknown>;
  if (body instanceof MultipartBody) fields = body.fields;
  else if (body !== null && typeof body === 'object' && isUrlEncoded(request.headers['content-type']))
    fields = body as Record<string, unknown>;
  else return {};
  const out: Record<string, string | string[]> = {};
  for (const name of Object.keys(fields)) {
    if (NEVER_FLASHED.has(name) || SECRET_NAME.test(name)) continue;
    const value = fields[name];
    if (typeof value === 'string') out[name] = value;
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) out[name] = [...value];
  }
  return out;
}

/**
 * Where a failed form goes back to: its `Referer` when that is on this host
 * (same `Host`, http or https) and its path and query are a path on this
 * site (never `//other.host`; docs/http.md "Redirects"), as path and query;
 * otherwise `/`. Never throws.
 */
export function backTarget(request: FastifyRequest): string {
  const referer = request.headers.referer;
  const host = request.headers.host;
  if (typeof referer !== 'string' || typeof host !== 'string') return '/';
  return sameHostPath(referer, host) ?? '/';
}
