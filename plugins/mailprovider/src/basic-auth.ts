/**
 * HTTP Basic authentication of the webhook (docs/spec.md 4.4, 5.7): the user name
 * and password from MAILPROVIDER_WEBHOOK_USER / MAILPROVIDER_WEBHOOK_PASSWORD,
 * compared in constant time. Missing or wrong credentials get 401 with
 * `WWW-Authenticate: Basic realm="mailprovider"`; without configured
 * credentials every request is refused. Wrong credentials are counted per
 * address; past the limit the address gets 429 (webhook-guard.ts).
 *
 * The credentials need no body: the middleware checks them before the body
 * is read (its `beforeBody`, docs/http.md "Before the body"), so a caller
 * without them never makes the server read or parse a byte of it.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpError } from 'bindery/errors';
import type { AroundMiddleware, BeforeBodyCheck } from 'bindery/http';

/** The credentials the webhook accepts; `undefined` when not configured. */
export interface WebhookCredentials {
  readonly user: string | undefined;
  readonly password: string | undefined;
}

/** The realm of the challenge. */
export const REALM = 'mailprovider';

/** Equal strings, in time independent of where they differ and of their lengths (SHA-256 digests compared with `timingSafeEqual`). */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a, 'utf8').digest(), createHash('sha256').update(b, 'utf8').digest());
}

/** The user name and password of an `Authorization: Basic …` header, or `null`. */
export function parseBasicAuthorization(header: string | undefined): { user: string; password: string } | null {
  if (header === undefined) return null;
  const match = /^Basic[ \t]+([A-Za-z0-9+/=._~-]+)[ \t]*$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** A 401 whose detail is the catalog message `key` (lang/<locale>/mailprovider.yaml) in the request's locale; `message` is its English text. */
function unauthorized(message: string, key: string): HttpError {
  return new HttpError(401, message, {
    code: 'MAILPROVIDER_UNAUTHORIZED',
    headers: { 'WWW-Authenticate': `Basic realm="${REALM}"` },
    detailMessage: { key },
  });
}

/**
 * True when `header` carries exactly the expected credentials. Both parts are
 * always compared (no early exit on a wrong user name).
 */
export function credentialsMatch(header: string | undefined, expected: WebhookCredentials): boolean {
  const given = parseBasicAuthorization(header);
  if (!expected.user || !expected.password) return false;
  const user = constantTimeEqual(given?.user ?? '', expected.user);
  const password = constantTimeEqual(given?.password ?? '', expected.password);
  return given !== null && user && password;
}

/** The per-address failure limit the middleware applies (see webhook-guard.ts). */
export interface FailureLimit {
  /** @throws {HttpError} 429 when `ip` used up its wrong credentials. */
  checkAddress(ip: string): Promise<void>;
  /** Count a wrong credential from `ip`. */
  failed(ip: string): Promise<void>;
}

/**
 * The middleware `mailprovider.basic_auth`, with the same check as its
 * `beforeBody` (run before the body is read when there is one; the
 * middleware then does not check again).
 * @param credentials read per request (the plugin's service holds the settings once booted; `undefined` before).
 * @param limit the per-address limit on wrong credentials, read per request (absent: none).
 */
export function basicAuth(
  credentials: (services: object) => WebhookCredentials | undefined,
  limit?: (services: object) => FailureLimit | undefined,
): AroundMiddleware & { readonly beforeBody: BeforeBodyCheck } {
  /** Requests whose credentials the early check accepted. */
  const accepted = new WeakSet<object>();
  /** Throws the refusal; false when the webhook is not configured and no logger was given (the middleware logs and refuses then). */
  const check = async (
    services: object,
    request: { readonly ip: string; readonly headers: { authorization?: string } },
    log: { error(o: object, m: string): void } | undefined,
  ): Promise<boolean> => {
    const expected = credentials(services);
    const failures = limit?.(services);
    const ip = request.ip;
    // An address past its limit is refused before its credentials are looked at.
    if (failures !== undefined) await failures.checkAddress(ip);
    if (!expected?.user || !expected.password) {
      if (log === undefined) return false;
      log.error(
        { code: 'MAILPROVIDER_NOT_CONFIGURED' },
        'mailprovider webhook called without MAILPROVIDER_WEBHOOK_USER and MAILPROVIDER_WEBHOOK_PASSWORD; refused',
      );
      throw unauthorized('The webhook is not configured to accept any credentials.', 'mailprovider.unauthorized.not_configured');
    }
    if (!credentialsMatch(request.headers.authorization, expected)) {
      if (failures !== undefined) await failures.failed(ip);
      throw unauthorized('The webhook needs valid HTTP Basic credentials.', 'mailprovider.unauthorized.credentials');
    }
    return true;
  };
  const middleware: AroundMiddleware = async (ctx, next) => {
    if (!accepted.has(ctx.request)) await check(ctx.services, ctx.request, ctx.log);
    return next();
  };
  const beforeBody: BeforeBodyCheck = async (request, _route, services) => {
    if (await check(services, request, undefined)) accepted.add(request);
    return undefined;
  };
  return Object.assign(middleware, { beforeBody });
}
