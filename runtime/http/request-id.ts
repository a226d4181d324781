/**
 * Request IDs (ARCHITECTURE.md#request-flow): every response carries X-Request-ID.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Header carrying the request ID, in both directions. */
export const REQUEST_ID_HEADER = 'x-request-id';

const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request ID of `req` (Fastify's `genReqId`): the incoming `X-Request-ID`
 * when it is 1 to 128 characters of `[A-Za-z0-9._:-]`, otherwise a fresh
 * random UUID. A repeated header (joined with ", ") is replaced. Never throws.
 */
export function requestIdFor(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && VALID_ID.test(incoming) ? incoming : randomUUID();
}
