/**
 * Reaching the auth service from a handler (docs/auth.md "ctx.services.auth").
 */
import type { RequestContext } from '../http/context.js';
import type { AuthService } from './auth-service.js';
import { requireService } from '../http/require-service.js';
import type { UntypedUser } from '../context/request-auth.js';

/**
 * The app's auth service (`ctx.services.auth`).
 * @throws {ServiceNotSetUpError} `BINDERY_SERVICE_NOT_SET_UP` when the app has no `auth()` step.
 * @example await authService(ctx).attempt(ctx, input.email, input.password, { remember: input.remember });
 */
export function authService<U = UntypedUser>(ctx: Pick<RequestContext, 'services'>): AuthService<U> {
  return requireService(ctx.services, 'auth', 'cache(), session() and auth({ users })') as AuthService<U>;
}
