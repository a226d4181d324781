/**
 * Request loggers without a per-request cost.
 *
 * Fastify attaches response listeners and builds a child logger on every
 * request as soon as it is given a logger — even with request logging off.
 * bindery gives Fastify no logger; it logs through the app's pino logger,
 * and a request's child logger (bound to its `reqId`) is made only when
 * something about that request is actually logged (a 5xx, a 499, a
 * timeout, or the handler's own `ctx.log`). On an observed request it also
 * carries the trace and span IDs (request-observer.ts).
 */
import type { Server } from 'node:http';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { observationOf } from './request-observer.js';

const bases = new WeakMap<Server, FastifyBaseLogger>();
const CHILD: unique symbol = Symbol('bindery.requestLog');

/** Remember `logger` as the base logger of the requests of `server`. */
export function setServerLogger(server: Server, logger: FastifyBaseLogger): void {
  bases.set(server, logger);
}

/** The base logger of a server (the app's logger). */
export function serverLogger(server: Server): FastifyBaseLogger | undefined {
  return bases.get(server);
}

/**
 * The logger of `request`, bound to its request ID (`reqId`) and, when it is
 * traced, its `trace_id` and `span_id`; made on first use.
 * Falls back to Fastify's `request.log` when the server has no bindery logger.
 */
export function requestLog(request: FastifyRequest): FastifyBaseLogger {
  const holder = request as unknown as { [CHILD]?: FastifyBaseLogger };
  const existing = holder[CHILD];
  if (existing !== undefined) return existing;
  const base = bases.get(request.server.server);
  const fields = observationOf(request)?.logFields();
  const child =
    base === undefined ? request.log : base.child(fields === undefined ? { reqId: request.id } : { reqId: request.id, ...fields });
  holder[CHILD] = child;
  return child;
}
