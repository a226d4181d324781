/**
 * Internal calls: a request this process makes to one of its own routes
 * (`app.inject()`), which the route's pipeline should run as it runs any
 * request — binding, rules, policies, rate limits, handler, serializer —
 * but attributed to something else than `request` and, for a dry run,
 * with services bound to a transaction (docs/mcp.md "How a call runs").
 *
 * The caller registers the call and sends its key in the
 * {@link INTERNAL_CALL_HEADER} header; the request context looks the key
 * up. A key is 128 random bits, known only inside the process and removed
 * once the call is done, so a client sending the header gets nothing.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Via } from '../context/execution-context.js';
import type { Services } from './context.js';

/** The header carrying an internal call's key. */
export const INTERNAL_CALL_HEADER = 'x-bindery-internal-call';

/** What an internal call changes about the request it makes. */
export interface InternalCall {
  /** The via recorded for the request's work (audit entries, queued jobs) instead of `request` and its path. */
  readonly via: Via;
  /** Services the request's handlers see instead of the app's (a dry run's, bound to its transaction). */
  readonly services?: Services;
  /** Whether the request is a dry run: its writes are rolled back (`ctx.dryRun`). */
  readonly dryRun: boolean;
}

const calls = new Map<string, InternalCall>();

/**
 * Register `call` for the duration of `fn`, which makes the request with
 * `headers` (the key in {@link INTERNAL_CALL_HEADER}). The key is removed
 * when `fn` settles, whatever it does.
 * @returns what `fn` returns.
 */
export async function withInternalCall<T>(call: InternalCall, fn: (headers: Record<string, string>) => Promise<T>): Promise<T> {
  const key = randomBytes(16).toString('base64url');
  calls.set(key, call);
  try {
    return await fn({ [INTERNAL_CALL_HEADER]: key });
  } finally {
    calls.delete(key);
  }
}

/** The internal call `request` belongs to, or `undefined` for any other request (the usual case: one header read). */
export function internalCallOf(request: FastifyRequest): InternalCall | undefined {
  const key = request.headers[INTERNAL_CALL_HEADER];
  return typeof key === 'string' ? calls.get(key) : undefined;
}
