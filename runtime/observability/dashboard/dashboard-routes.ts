/**
 * The development dashboard's pages (docs/observability.md "The development
 * dashboard"), rendered with bindery's own views (`./views/*.eta`) and one
 * stylesheet served by the app itself: no script, nothing from elsewhere,
 * so the default Content-Security-Policy holds.
 *
 * | route | page |
 * |---|---|
 * | `GET /_bindery` | the last requests, newest first |
 * | `GET /_bindery/requests/{id}` | one request by its request ID: SQL, mails, jobs queued, audit entries, errors |
 * | `GET /_bindery/jobs` | the job queue, failed jobs, recent runs in this process |
 * | `GET /_bindery/runs/{id}` | one job run |
 * | `GET /_bindery/mail`, `GET /_bindery/mail/{id}` | the mail outbox, one message |
 *
 * The `observability()` step adds these routes only with
 * `APP_ENV=development`; in production they do not exist (404).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AnyKysely } from '../../db/any-kysely.js';
import type { Database } from '../../db/connect.js';
import type { QueueBackend } from '../../jobs/backend.js';
import type { RouteHandler } from '../../http/handler.js';
import { respond } from '../../results/result.js';
import type { FieldPlan, RouteDefinition } from '../../routing/route-table.js';
import { createViewRenderer } from '../../views/view-renderer.js';
import { OWN_ROUTE_PREFIX } from '../app-telemetry.js';
import { auditEntriesOf } from './dashboard-audit.js';
import { jobQueue, outbox, outboxMessage } from './dashboard-data.js';
import { DASHBOARD_PATH } from './paths.js';
import type { Recorder } from './records.js';

const VIEWS = fileURLToPath(new URL('./views/', import.meta.url));
const STYLESHEET = fileURLToPath(new URL('./dashboard.css', import.meta.url));
const HTML = 'text/html; charset=utf-8';

type Handler = RouteHandler<{ readonly id: string }, unknown>;

/**
 * The dashboard's routes and handlers, over `recorder`'s records and the app's database (its Kysely instance and engine).
 * @param queue the app's queue backend, asked per page (`undefined` without `jobs()`).
 */
export function dashboardRoutes(
  recorder: Recorder,
  database: Pick<Database, 'db' | 'engine'>,
  appName: string,
  queue: () => QueueBackend | undefined,
): { routes: RouteDefinition[]; handlers: Record<string, Handler> } {
  const db: AnyKysely = database.db;
  const views = createViewRenderer(VIEWS, { cache: true });
  const css = readFileSync(STYLESHEET, 'utf8');
  const page = async (view: string, section: string, title: string, data: Record<string, unknown>, status = 200) => {
    const html = await views.render(view, { ...helpers, ...data, app: appName, section, title, size: recorder.size });
    return respond((reply) => reply.code(status).header('content-type', HTML).header('cache-control', 'no-store').send(html));
  };
  const missing = (section: string, message: string, back: string) => page('not-found', section, 'Not kept', { message, back }, 404);
  const routes: RouteDefinition[] = [];
  const handlers: Record<string, Handler> = {};
  const add = (name: string, path: string, handler: Handler) => {
    routes.push(route(`${OWN_ROUTE_PREFIX}${name}`, path));
    handlers[`${OWN_ROUTE_PREFIX}${name}`] = handler;
  };
  add('dashboard', DASHBOARD_PATH, () => page('requests', 'requests', 'Requests', { requests: recorder.requests() }));
  add('request', `${DASHBOARD_PATH}/requests/{id}`, async ({ id }) => {
    const record = recorder.request(id);
    if (record === undefined)
      return missing('requests', `No request ${id} among the last ${recorder.size} of this process.`, DASHBOARD_PATH);
    return page('request', 'requests', `${record.method} ${record.path}`, {
      record,
      audit: await auditEntriesOf(database, id),
      runs: recorder.runsQueuedBy(id),
    });
  });
  add('jobs', `${DASHBOARD_PATH}/jobs`, async () =>
    page('jobs', 'jobs', 'Jobs', { queue: await jobQueue(db, queue()), runs: recorder.runs() }),
  );
  add('run', `${DASHBOARD_PATH}/runs/{id}`, ({ id }) => {
    const record = recorder.run(id);
    if (record === undefined)
      return missing('jobs', `No job run ${id} among the last ${recorder.size} of this process.`, `${DASHBOARD_PATH}/jobs`);
    return page('run', 'jobs', record.name, { record });
  });
  add('mail', `${DASHBOARD_PATH}/mail`, async () => page('mail', 'mail', 'Mail outbox', { messages: await outbox(db) }));
  add('mail_message', `${DASHBOARD_PATH}/mail/{id}`, async ({ id }) => {
    const message = /^\d{1,15}$/.test(id) ? await outboxMessage(db, Number(id)) : undefined;
    if (message === undefined || message === null) return missing('mail', `No message ${id} in the outbox.`, `${DASHBOARD_PATH}/mail`);
    return page('mail-message', 'mail', message.subject, { message });
  });
  add('stylesheet', `${DASHBOARD_PATH}/dashboard.css`, () =>
    respond((reply) => reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'no-cache').send(css)),
  );
  return { routes, handlers };
}

/** Formatting the pages share. */
const helpers = {
  /** Milliseconds as `12.3 ms`, `—` when unknown. */
  ms: (value: number | undefined) => (value === undefined ? '—' : value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(1)} ms`),
  /** An epoch time as `14:03:07.123` (local time). */
  time: (epochMs: number) => {
    const d = new Date(epochMs);
    const two = (n: number) => String(n).padStart(2, '0');
    return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
  },
  /** The CSS class of a status: `s2`, `s4`, `s5`. */
  statusClass: (status: number | undefined) => (status === undefined ? '' : `s${Math.floor(status / 100)}`),
};

const ID_FIELD: FieldPlan = { key: 'id', type: { kind: 'string', array: false, nullable: false }, source: 'path', name: 'id', rules: [] };

function route(name: string, path: string): RouteDefinition {
  return {
    name,
    method: 'GET',
    path,
    group: null,
    middleware: [],
    result: 'custom',
    fields: path.includes('{id}') ? [ID_FIELD] : [],
    validate: null,
    output: null,
    origin: 'observability()',
  };
}
