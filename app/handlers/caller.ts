/**
 * Who is calling the documents API: the one place handlers learn the
 * caller's user ID (SPEC.md 4.2 "the caller's documents").
 *
 * Until accounts land, `app/middleware/dev-user.ts` identifies the caller
 * from the development-only `X-Dev-User-Id` header and calls
 * {@link setCaller}. With accounts, the bearer-token middleware (`token`)
 * signs the user in; replace the body of {@link callerId} with a read of that
 * user, and drop `setCaller` and the dev-user middleware.
 */
import type { RequestContext } from '../../runtime/http/context.js';
import { HttpError } from '../../runtime/errors/index.js';

const callers = new WeakMap<RequestContext, number>();

/** Record the caller of a request (dev-user middleware only). */
export function setCaller(ctx: RequestContext, userId: number): void {
  callers.set(ctx, userId);
}

/**
 * The signed-in caller's user ID.
 * @throws {HttpError} 401 when no middleware identified a caller (a route outside the documents group).
 * @example const owner = callerId(ctx);
 */
export function callerId(ctx: RequestContext): number {
  const id = callers.get(ctx);
  if (id === undefined) throw new HttpError(401, 'This route needs a signed-in caller.', { code: 'CALLER_REQUIRED' });
  return id;
}
