/**
 * The state of the client connection (docs/spec.md 7: 499).
 */
import type { FastifyBaseLogger, FastifyReply } from 'fastify';

/**
 * True when the client went away before the response was written: the
 * response stream was destroyed (socket closed) and nothing ended it.
 * A cheap property read, done before every write. Never throws.
 */
export function clientGone(reply: FastifyReply): boolean {
  const res = reply.raw;
  return res.destroyed && !res.writableEnded;
}

/**
 * Log a request whose client went away, with status 499; nothing is written.
 * @param error the error the request ended with, if any (logged with it).
 */
export function logClientGone(log: FastifyBaseLogger, error?: unknown): void {
  log.info(
    { res: { statusCode: 499 }, code: 'BINDERY_CLIENT_CLOSED_REQUEST', ...(error === undefined ? {} : { err: error }) },
    'client closed the connection before the response was written; nothing was written',
  );
}
