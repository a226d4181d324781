/**
 * `GET /metrics` (docs/observability.md "Prometheus"): the app's metrics in
 * the Prometheus text format, for a scraper.
 *
 * Guarded. In production it needs its own credential, `Authorization:
 * Bearer <METRICS_TOKEN>`, from every client, this machine included: a
 * reverse proxy on the same host that adds no forwarding header (nginx's
 * plain `proxy_pass`) makes every request look local, so where a request
 * comes from proves nothing there. Without `METRICS_TOKEN` it is 403.
 *
 * Outside production (development, testing), a client on this machine (a
 * loopback address, and no proxy header) reads it freely too; any other
 * must send the token — 401 without or with another token, 403 when no
 * token is set.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../errors/http-error.js';
import type { RouteHandler } from '../http/handler.js';
import { respond } from '../results/result.js';
import type { RouteDefinition } from '../routing/route-table.js';
import { OWN_ROUTE_PREFIX } from './app-telemetry.js';
import type { PrometheusConfig } from './observability-config.js';

/** The content type of the Prometheus text exposition format. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

/** Who may read `/metrics`: the SHA-256 of `METRICS_TOKEN` when set, and whether local clients need none. */
export interface MetricsAccess {
  readonly digest: Buffer | undefined;
  /** Clients on this machine read without the token (outside production only). */
  readonly localFree: boolean;
}

/**
 * The route and its handler.
 * @param scrape the exposition text, made per scrape.
 * @param config the token and whether local clients read freely (`ObservabilityConfig.prometheus`).
 */
export function metricsRoute(
  scrape: () => Promise<string>,
  config: PrometheusConfig,
): { route: RouteDefinition; handler: RouteHandler<Record<string, never>, unknown> } {
  const access: MetricsAccess = { digest: config.token === undefined ? undefined : sha256(config.token), localFree: config.localFree };
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
      checkAccess(ctx.request, access);
      const text = await scrape();
      return respond((reply) => reply.header('content-type', PROMETHEUS_CONTENT_TYPE).header('cache-control', 'no-store').send(text));
    },
  };
}

/**
 * Let the request through, or throw why not.
 * @throws {HttpError} `BINDERY_METRICS_UNAUTHORIZED` (401) or `BINDERY_METRICS_FORBIDDEN` (403).
 */
export function checkAccess(request: FastifyRequest, access: MetricsAccess): void {
  if (access.localFree && isLocal(request)) return;
  if (access.digest === undefined)
    throw new HttpError(
      'BINDERY_METRICS_FORBIDDEN',
      access.localFree
        ? 'The metrics are served to clients on this machine only; set METRICS_TOKEN to let a scraper elsewhere in.'
        : 'In production GET /metrics needs its own credential: set METRICS_TOKEN and have the scraper send Authorization: Bearer <METRICS_TOKEN> (docs/observability.md "Prometheus").',
    );
  const header = request.headers.authorization;
  const sent = header !== undefined && /^bearer /i.test(header) ? header.slice(7).trim() : undefined;
  if (sent === undefined || !timingSafeEqual(sha256(sent), access.digest))
    throw new HttpError('BINDERY_METRICS_UNAUTHORIZED', 'Send Authorization: Bearer <METRICS_TOKEN> to read the metrics.', {
      headers: { 'www-authenticate': 'Bearer realm="metrics"' },
    });
}

/** A client on this machine, talking to the app directly (as far as the request shows: a same-host proxy may add no header). */
function isLocal(request: FastifyRequest): boolean {
  for (const name of PROXY_HEADERS) if (request.headers[name] !== undefined) return false;
  const address = request.raw.socket.remoteAddress ?? '';
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
