/**
 * The error statuses of each route in `generated/client.ts`
 * (docs/client.md "Errors"): `RouteErrors`, and `isApiError(error, route)`,
 * which narrows a caught error to the `ApiError` of that route with its
 * status typed — 401 and 403 for the guarded routes (docs/authorization.md
 * "Clients"), as the OpenAPI document lists them.
 */
import type { Model, Route } from '../../model/model.js';
import { mayForbid, refusesGuests } from '../openapi/authorization.js';
import { quote } from '../ts-source.js';

/** The statuses `route` answers besides success, 500 and a network failure, in order. */
export function errorStatuses(route: Route, model: Model): number[] {
  const statuses = new Set<number>();
  if (route.input.length > 0) statuses.add(400);
  if (route.middleware.includes('token') || refusesGuests(route, model)) statuses.add(401);
  if (mayForbid(route)) statuses.add(403);
  if (route.pathParams.length > 0 || route.authorize?.target) statuses.add(404);
  if (route.input.length > 0) statuses.add(422);
  if (route.confirmPassword !== null) statuses.add(423);
  if (route.rateLimit !== null) statuses.add(429);
  for (const { status } of route.errors) statuses.add(status);
  return [...statuses].sort((a, b) => a - b);
}

/** The `RouteErrors` interface and the `isApiError` guard, as client source text. */
export function routeErrorsSource(routes: readonly Route[], model: Model): string {
  const lines = routes.map((r) => {
    const statuses = errorStatuses(r, model);
    return `  ${quote(r.name)}: ${statuses.length > 0 ? statuses.join(' | ') : 'never'};`;
  });
  return `/**
 * The error statuses each route answers, besides 500 (any other failure) and
 * 0 (no answer): 400 and 422 for bad input, 401 when the caller must sign
 * in (or send a valid token), 403 when a token lacks an ability or the
 * route's policy refuses, 404 for a row that does not exist (or is hidden),
 * 423 when the password must be confirmed again, 429 when rate-limited,
 * and the statuses the route's YAML \`errors:\` declares (409…).
 */
export interface RouteErrors {
${lines.join('\n')}
}

/** The statuses an \`ApiError\` of route \`R\` can carry. */
export type ErrorStatusOf<R extends keyof RouteErrors> = RouteErrors[R] | 500 | 0;

/**
 * Whether \`error\` is the \`ApiError\` of a call to \`route\`: its \`status\` is then typed by the route's answers.
 * @example
 *   try { await api.documents.update({ id, title }); }
 *   catch (error) { if (isApiError(error, 'documents.update') && error.status === 403) showReadOnly(); }
 */
export function isApiError<R extends keyof RouteErrors>(error: unknown, route: R): error is ApiError<ErrorStatusOf<R>> & { readonly route: R } {
  return error instanceof ApiError && error.route === route;
}`;
}
