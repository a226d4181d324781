/**
 * `GET /metrics` (docs/observability.md "Prometheus"): the app's metrics in
 * the Prometheus text format, for a scraper.
 *
 * Guarded: a client on this machine (a loopback address, and no proxy
 * header: behind a reverse proxy on the same host every request would come
 * from 127.0.0.1) reads it freely; any other must send `Authorization:
 * Bearer <METRICS_TOKEN>` — 401 without or with another token, 403 when no
 * token is set.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../errors/http-error.js';
import type { RouteHandler } from '../http/handler.js';
import { respond } from '../results/result.js';
import type { RouteDefinition } from '../routing/route-table.js';
import { OWN_ROUTE_PREFIX } from './app-telemetry.js';

/** The content type of the Prometheus text exposition format. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

/** The route and its handler. */
export function metricsRoute(
  scrape: () => Promise<string>,
  token: string | undefined,
): { route: RouteDefinition; handler: RouteHandler<Record<string, never>, unknown> } {
  const digest = token === undefined ? undefined : sha256(token);
  return {
    route: {
      name: `${OWN_ROUTE_PREFIX}metrics`,
      method: 'GET',
      path: '/metrics',
      group: null,
      middleware: [],
      result: 'custom',
      fields: [],
      validate: null,
      output: null,
      origin: 'observability()',
    },
    handler: async (_input, ctx) => {
      checkAccess(ctx.request, digest);
      const text = await scrape();
      return respond((reply) => reply.header('content-type', PROMETHEUS_CONTENT_TYPE).header('cache-control', 'no-store').send(text));
    },
  };
}

/**
 * Let the request through, or throw why not.
 * @param digest the SHA-256 of METRICS_TOKEN, when set.
 * @throws {HttpError} `BINDERY_METRICS_UNAUTHORIZED` (401) or `BINDERY_METRICS_FORBIDDEN` (403).
 */
export function checkAccess(request: FastifyRequest, digest: Buffer | undefined): void {
  if (isLocal(request)) return;
  if (digest === undefined)
    throw new HttpError(
      'BINDERY_METRICS_FORBIDDEN',
      'The metrics are served to clients on this machine only; set METRICS_TOKEN to let a scraper elsewhere in.',
    );
  const header = request.headers.authorization;
  const sent = header !== undefined && /^bearer /i.test(header) ? header.slice(7).trim() : undefined;
  if (sent === undefined || !timingSafeEqual(sha256(sent), digest))
    throw new HttpError('BINDERY_METRICS_UNAUTHORIZED', 'Send Authorization: Bearer <METRICS_TOKEN> to read the metrics.', {
      headers: { 'www-authenticate': 'Bearer realm="metrics"' },
    });
}

/** A client on this machine, talking to the app directly. */
function isLocal(request: FastifyRequest): boolean {
  for (const name of PROXY_HEADERS) if (request.headers[name] !== undefined) return false;
  const address = request.raw.socket.remoteAddress ?? '';
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
