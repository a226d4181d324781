/**
 * The `conduit` middleware of both groups: what the RealWorld specification
 * asks of every request and error.
 *
 * - `Authorization: Token <token>` is read as the bearer token it is (the
 *   `token` middleware after it checks it: a bad one is 401);
 * - a JSON body wrapped in its envelope (`{ "user": { … } }`) is bound by
 *   its members;
 * - every error is JSON in the specification's format,
 *   `{"errors": {"body": ["…"]}}`: a validation failure (422) lists the
 *   message of each field.
 */
import type { AroundMiddleware, RequestContext } from 'bindery/http';
import { HttpError } from 'bindery/errors';
import { text } from 'bindery/results';

const ENVELOPES = ['user', 'article', 'comment'];

export const conduit: AroundMiddleware = async (ctx, next) => {
  const header = ctx.request.headers.authorization;
  const token = header === undefined ? null : /^Token\s+(\S+)\s*$/i.exec(header);
  if (token !== null) ctx.request.headers.authorization = `Bearer ${token[1]}`;
  const body = ctx.request.body as Record<string, unknown> | undefined;
  if (body !== null && typeof body === 'object') {
    const keys = Object.keys(body);
    const inner = keys.length === 1 && ENVELOPES.includes(keys[0]!) ? body[keys[0]!] : undefined;
    if (inner !== null && typeof inner === 'object' && !Array.isArray(inner)) ctx.request.body = inner;
  }
  try {
    return await next();
  } catch (error) {
    if (!(error instanceof HttpError) || error.status >= 500) throw error;
    // A login refused keeps its message; no (good) token gets ours.
    const messages =
      error.status === 401 && error.code !== undefined ? [UNAUTHORIZED] : Object.values(error.fieldErrors ?? { error: error.message });
    if (error.status === 401) ctx.reply.header('www-authenticate', 'Token');
    // Not the route's output shape: written as it is.
    return text(JSON.stringify({ errors: { body: messages } }), error.status, 'application/json; charset=utf-8');
  }
};

const UNAUTHORIZED = 'Send a valid token, as Authorization: Token <token> (login and registration answer one).';

/** The caller's user ID, or null for a guest. */
export function viewerId(ctx: RequestContext): number | null {
  return ctx.auth.id === null ? null : Number(ctx.auth.id);
}

/** The signed-in caller's token, as sent (a `member` route always has one). */
export function callerToken(ctx: RequestContext): string {
  return (ctx.request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
}
