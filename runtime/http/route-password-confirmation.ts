/**
 * A route's `confirmPassword` (YAML; docs/auth.md "Password confirmation"),
 * as the last middleware of its chain: the HTTP server adds the middleware
 * the `passwordConfirmation()` step registered under
 * {@link CONFIRM_PASSWORD_MIDDLEWARE} to every route that declares the key.
 */
import { BinderyError } from '../errors/bindery-error.js';
import type { Middleware } from './handler.js';
import type { RouteDefinition } from '../routing/route-table.js';

/** The name the `passwordConfirmation()` step registers its middleware under. */
export const CONFIRM_PASSWORD_MIDDLEWARE = 'confirmPassword';

/**
 * The route's chain with the confirmation check last (after the guards, so
 * the user is known); `chain` unchanged when the route declares none.
 * @param middleware every middleware of the app, by name.
 * @throws {BinderyError} `BINDERY_ROUTE_INVALID` when the route declares confirmPassword and no step provides the check.
 */
export function withPasswordConfirmation(
  route: RouteDefinition,
  chain: readonly Middleware[],
  middleware: Readonly<Record<string, Middleware>>,
): readonly Middleware[] {
  if (route.confirmPassword === undefined) return chain;
  const confirm = middleware[CONFIRM_PASSWORD_MIDDLEWARE];
  if (confirm === undefined) {
    throw new BinderyError(
      'BINDERY_ROUTE_INVALID',
      `Route "${route.name}" (${route.origin}) has confirmPassword, but the app has no password confirmation: add passwordConfirmation() (from bindery/auth/confirm) to the setup list of app/main.ts, after auth().`,
    );
  }
  return chain.includes(confirm) ? chain : [...chain, confirm];
}
