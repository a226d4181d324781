/**
 * Off means nothing on the request path (docs/observability.md "Cost"):
 * with observability() set up and nothing configured (production), no
 * hook is added to any route, the pool's clients are not wrapped, no
 * OpenTelemetry global is registered and /metrics does not exist — the
 * server is the one an app without the step gets. Configured, the hook is
 * there. (A structural check: CPU figures on a shared machine cannot
 * resolve 2 %; docs/benchmarks.md "Observability".)
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../runtime/app/index.js';
import { observability } from '../../../runtime/observability/index.js';
import { text } from '../../../runtime/results/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { postgresPoolOf } from '../../../runtime/db/engines/postgres/index.js';

const app = (withStep: boolean) =>
  defineApp({
    name: withStep ? 'observed' : 'plain',
    root: fileURLToPath(new URL('.', import.meta.url)),
    routes: [
      {
        name: 'hello',
        method: 'GET',
        path: '/hello',
        group: null,
        middleware: [],
        result: 'text',
        fields: [],
        validate: null,
        output: null,
        origin: 'test',
      },
    ],
    handlers: { hello: () => text('hello') },
    migrations: [],
    setup: withStep ? [observability()] : [],
  });

const OTEL_GLOBAL = Symbol.for('opentelemetry.js.api.1');
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase('observability_off');
});
afterAll(async () => {
  await database?.drop();
});

async function boot(withStep: boolean, env: Record<string, string>): Promise<TestApp> {
  return createTestApp(app(withStep), { databaseUrl: database.url, env: { APP_ENV: 'production', ...env } });
}

describe('observability() | off costs nothing', () => {
  it('nothing configured: the same routes and hooks as without the step, no pool listener, no OpenTelemetry global', async () => {
    const without = await boot(false, {});
    const off = await boot(true, {});
    try {
      const routes = (t: TestApp) => t.app.printRoutes({ includeHooks: true, commonPrefix: false });
      expect(routes(off)).toBe(routes(without));
      expect(routes(off)).not.toContain('observeRequest');
      expect(postgresPoolOf(off.running.database).listenerCount('acquire')).toBe(0);
      expect((globalThis as Record<symbol, unknown>)[OTEL_GLOBAL]).toBeUndefined();
      expect((await fetch(`${off.url}/hello`)).status).toBe(200);
      expect((await fetch(`${off.url}/metrics`)).status).toBe(404);
    } finally {
      await without.close();
      await off.close();
    }
  });

  it('configured (metrics, access log): the hook on every route', async () => {
    const token = 'a-production-scraper-secret';
    const on = await boot(true, { METRICS_ENDPOINT: 'true', METRICS_TOKEN: token, HTTP_ACCESS_LOG: 'true', LOG_LEVEL: 'silent' });
    try {
      expect(on.app.printRoutes({ includeHooks: true, commonPrefix: false })).toContain('observeRequest');
      // In production /metrics needs its token, from this machine too (docs/observability.md "Prometheus").
      expect((await fetch(`${on.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    } finally {
      await on.close();
    }
  });
});
