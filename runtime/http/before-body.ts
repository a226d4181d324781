/**
 * Checks that need no body, run before the body is read (docs/http.md
 * "Before the body").
 *
 * Fastify reads and parses a request body (up to `HTTP_MAX_BODY`) before the
 * route's handler — and so before the route's middleware — runs. A
 * middleware whose refusal can be decided from the request line and headers
 * alone (a cross-site form post, a request to a signed-in route carrying no
 * credentials at all) offers a {@link BeforeBodyCheck}; the route runs those
 * checks in middleware order in Fastify's `onRequest` hook, for requests
 * that carry a body, and a refusal is answered at once with
 * `Connection: close`, so the body is never read. The middleware still runs
 * in full afterwards: the early check is a subset of it, never a
 * replacement.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { RouteDefinition } from '../routing/route-table.js';
import type { Services } from './context.js';
import { sendError } from './error-response.js';
import type { BeforeBodyCheck, Middleware } from './handler.js';
import { isThenable } from './middleware-chain.js';

export type { BeforeBodyCheck };
import type { StandardHeaders } from './security-headers.js';

/** Whether the request announces a body (`Content-Length` above 0, or `Transfer-Encoding`). */
export function announcesBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return (length !== undefined && length !== '0') || headers['transfer-encoding'] !== undefined;
}

/**
 * The `onRequest` hook of `route` running the early checks of `middleware`
 * (a `beforeBody` property of a middleware of either form), or `undefined`
 * when none of them has one.
 * @param services the app's services, handed to each check.
 */
export function compileBeforeBody(
  route: RouteDefinition,
  middleware: readonly Middleware[],
  headers: StandardHeaders,
  debug: boolean,
  services: Services = {} as Services,
): onRequestHookHandler | undefined {
  const checks = middleware
    .map((m) => (m as { beforeBody?: BeforeBodyCheck }).beforeBody)
    .filter((c): c is BeforeBodyCheck => c !== undefined);
  if (checks.length === 0) return undefined;
  const refuse = (request: FastifyRequest, reply: FastifyReply, error: unknown): void => {
    headers.apply(reply);
    reply.header('connection', 'close');
    sendError(request, reply, error, debug, route);
  };
  const redirect = (reply: FastifyReply, location: string): void => {
    headers.apply(reply);
    reply.header('connection', 'close').code(303).header('location', location).send();
  };
  // Runs the checks from `from` on; a check returning a promise resumes the rest when it settles.
  // Built once per route: a request whose checks answer at once makes no closure.
  const run = (from: number, request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    for (let i = from; i < checks.length; i++) {
      let outcome: string | undefined | Promise<string | undefined>;
      try {
        outcome = checks[i]!(request, route, services);
      } catch (error) {
        refuse(request, reply, error);
        return;
      }
      if (isThenable(outcome)) {
        (outcome as Promise<string | undefined>).then(
          (location) => {
            if (location === undefined) run(i + 1, request, reply, done);
            else redirect(reply, location);
          },
          (error: unknown) => refuse(request, reply, error),
        );
        return;
      }
      if (outcome !== undefined) {
        redirect(reply, outcome);
        return;
      }
    }
    done();
  };
  return function beforeBody(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
    if (!announcesBody(request.headers)) {
      done();
      return;
    }
    run(0, request, reply, done);
  };
}
