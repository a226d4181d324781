/**
 * Health endpoints (docs/deploy.md): `GET /health/live` and `GET /health/ready`.
 */
import type { FastifyInstance } from 'fastify';
import { JSON_CONTENT_TYPE } from '../results/responder.js';
import type { ReadinessReport } from './server-options.js';
import type { StandardHeaders } from './security-headers.js';
import { requestLog } from './request-log.js';

/** Paths of the health endpoints; routes of the table may not use them. */
export const HEALTH_PATHS: readonly string[] = ['/health/live', '/health/ready'];

/**
 * Register the health routes.
 *
 * - `GET /health/live` → 200 `{"status":"ok"}` while the process serves requests.
 * - `GET /health/ready` → 200 `{"status":"ok","checks":{…}}` when `readiness`
 *   reports ok (or is absent), else 503 `{"status":"unavailable","checks":{…}}`;
 *   a readiness probe that throws is 503 with `checks.readiness` naming the error.
 *
 * Both carry `Cache-Control: no-store` and the standard headers.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  headers: StandardHeaders,
  readiness: (() => Promise<ReadinessReport>) | undefined,
): void {
  app.get(HEALTH_PATHS[0]!, (_request, reply) => {
    headers.apply(reply);
    reply.header('cache-control', 'no-store').header('content-type', JSON_CONTENT_TYPE).send('{"status":"ok"}');
  });
  app.get(HEALTH_PATHS[1]!, async (request, reply) => {
    headers.apply(reply);
    let report: ReadinessReport;
    try {
      report = readiness === undefined ? { ok: true, checks: {} } : await readiness();
    } catch (err) {
      requestLog(request).error({ err }, 'the readiness probe failed');
      report = { ok: false, checks: { readiness: `failed: ${(err as Error)?.message ?? String(err)}` } };
    }
    reply
      .code(report.ok ? 200 : 503)
      .header('cache-control', 'no-store')
      .header('content-type', JSON_CONTENT_TYPE)
      .send(JSON.stringify({ status: report.ok ? 'ok' : 'unavailable', checks: report.checks }));
    return reply;
  });
}
