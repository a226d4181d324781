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
 * that carry a body, and a refusal is answered at once: with
 * `Connection: close`, so the body is never read, unless the body is
 * announced no larger than {@link DISCARDED_BODY_BYTES} (then it is read
 * and discarded, and the client's upload does not fail). The middleware still runs
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
 * The largest announced body (bytes, by `Content-Length`) a refusal still
 * reads and discards, keeping the connection: closing on a client still
 * sending makes its write fail (EPIPE) before it reads the answer.
 */
export const DISCARDED_BODY_BYTES = 65_536;

/** Whether a refusal should close the connection rather than read and discard the body. */
function closesOnRefusal(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return length === undefined || !(Number(length) <= DISCARDED_BODY_BYTES);
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
    if (closesOnRefusal(request.headers)) reply.header('connection', 'close');
    sendError(request, reply, error, debug, route);
  };
  const redirect = (request: FastifyRequest, reply: FastifyReply, location: string): void => {
    headers.apply(reply);
    if (closesOnRefusal(request.headers)) reply.header('connection', 'close');
    reply.code(303).header('location', location).send();
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
            else redirect(request, reply, location);
          },
          (error: unknown) => refuse(request, reply, error),
        );
        return;
      }
      if (outcome !== undefined) {
        redirect(request, reply, outcome);
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
