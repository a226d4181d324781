/**
 * Who is calling the documents API: the one place handlers learn the
 * caller's user ID (docs/spec.md 4.2 "the caller's documents").
 *
 * The documents group runs `[token, require]` (schema/documents.yaml): the
 * `token` middleware signs the request in by its bearer token
 * (docs/tokens.md) and `require` refuses a guest (401), so a handler always
 * has a signed-in caller, and the audit log attributes its writes to
 * `user:<id>` through `ctx.auth`.
 */
import type { RequestContext } from 'bindery/http';
import { HttpError } from 'bindery/errors';

/**
 * The signed-in caller's user ID (`ctx.auth.id`, the decimal string of `users.id`).
 * @throws {HttpError} 401 when the request is not signed in (a route outside the documents group).
 * @example const owner = callerId(ctx);
 */
export function callerId(ctx: RequestContext): number {
  const id = ctx.auth.id;
  if (id === null) throw new HttpError(401, 'This route needs a signed-in caller.', { code: 'CALLER_REQUIRED' });
  return Number(id);
}
