/**
 * Reaching the auth service from a handler (docs/auth.md "ctx.services.auth").
 */
import type { RequestContext } from '../http/context.js';
import type { AuthService } from './auth-service.js';
import { AuthSetupError } from './errors.js';
import type { UntypedUser } from '../context/request-auth.js';

/**
 * The app's auth service (`ctx.services.auth`).
 * @throws {AuthSetupError} `BINDERY_AUTH_NOT_SET_UP` when the app has no `auth()` step.
 * @example await authService(ctx).attempt(ctx, input.email, input.password, { remember: input.remember });
 */
export function authService<U = UntypedUser>(ctx: Pick<RequestContext, 'services'>): AuthService<U> {
  const service = ctx.services.auth;
  if (service === undefined) {
    throw new AuthSetupError('BINDERY_AUTH_NOT_SET_UP', 'ctx.services.auth is not set up: add cache(), session() and auth({ users }) to the setup list of app/main.ts (docs/auth.md).');
  }
  return service as AuthService<U>;
}
