/**
 * SQL spans on MariaDB (docs/observability.md "Traces"): a request's
 * statements arrive as CLIENT spans naming the engine the app runs on
 * (`db.system.name` `mariadb`), its database and server, the port a URL
 * without one defaults to on MySQL (3306) rather than PostgreSQL's.
 */
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../runtime/app/index.js';
import type { RouteHandler } from '../../../runtime/http/handler.js';
import { observability } from '../../../runtime/observability/index.js';
import { createTestMariaDatabase, type TestDatabase } from '../../support/database.js';
import { waitFor } from '../jobs/wait-for.js';
import { route } from '../http/support/routes.js';
import { type OtlpReceiver, startOtlpReceiver } from './otlp-receiver.js';

const CLIENT = 3;

const app = defineApp({
  name: 'otelmaria',
  root: fileURLToPath(new URL('.', import.meta.url)),
  routes: [route({ name: 'probe', path: '/probe' })],
  handlers: {
    async probe(_input, ctx) {
      await sql`select 1 as one`.execute(ctx.services.db);
      return { ok: true };
    },
  } satisfies Record<string, RouteHandler<unknown, unknown>>,
  migrations: [],
  setup: [observability()],
});

let database: TestDatabase;
let receiver: OtlpReceiver;
let t: TestApp;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  database = await createTestMariaDatabase('otelmaria');
  t = await createTestApp(app, {
    databaseUrl: database.url,
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'maria-under-test',
      OTEL_BSP_SCHEDULE_DELAY: '50',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
  await receiver?.close();
});

describe('Traces on MariaDB | SQL spans', () => {
  it("name the engine, the database and the server of the app's MariaDB", async () => {
    const res = await fetch(`${t.url}/probe`);
    expect(res.status).toBe(200);
    await waitFor(() => receiver.spans.some((s) => s.kind === CLIENT), 'a SQL span', 15_000);
    const span = receiver.spans.find((s) => s.kind === CLIENT)!;
    const url = new URL(database.url);
    expect(span.attributes).toMatchObject({
      'db.system.name': 'mariadb',
      'db.namespace': database.name,
      'server.address': url.hostname,
      'server.port': url.port === '' ? 3306 : Number(url.port),
    });
    expect(receiver.spans.filter((s) => s.attributes['db.system.name'] === 'postgresql')).toEqual([]);
  });
});
