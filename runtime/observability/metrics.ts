/**
 * The metrics of an app (docs/observability.md "Metrics"), with
 * OpenTelemetry's names and units where its semantic conventions have them:
 *
 * | metric | type | attributes |
 * |---|---|---|
 * | `http.server.request.duration` (s) | histogram | `http.request.method`, `http.route`, `http.response.status_class` |
 * | `http.server.active_requests` | up-down counter (read at collection) | `http.request.method` |
 * | `db.client.connection.count` | gauge | `db.client.connection.state` (`idle`, `used`), `db.client.connection.pool.name` |
 * | `db.client.connection.pending_requests` | gauge | `db.client.connection.pool.name` |
 * | `db.client.connection.max` | gauge | `db.client.connection.pool.name` |
 * | `bindery.jobs` | gauge | `bindery.job.state` (`queued`, `waiting`, `running`, `failed`) |
 * | `bindery.job.duration` (s) | histogram | `bindery.job.name`, `bindery.job.kind`, `bindery.job.outcome` |
 * | `bindery.auth.login_failures` | counter | `bindery.auth.reason` (`credentials`, `throttled`) |
 *
 * Gauges are read when the metrics are collected (an export, a scrape): the
 * pool's counts from pg, the job counts by one query on graphile-worker's
 * table. Nothing here runs per request but a histogram sample and an
 * in-flight count kept in a map.
 */
import { type Attributes, type Counter, type Histogram, type Meter, ROOT_CONTEXT } from '@opentelemetry/api';
import { sql } from 'kysely';
import type pg from 'pg';
import type { AnyKysely } from '../db/any-kysely.js';

/** The bucket bounds (seconds) OpenTelemetry advises for HTTP server durations; also used for jobs. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** Where the gauges read from. */
export interface MetricSources {
  /** The app's pool (`db.client.connection.*`) and its name in the attributes. */
  readonly pool: pg.Pool;
  readonly poolName: string;
  /** The app's database, to count jobs; `null` when the app has no `jobs()` (asked at each collection). */
  readonly jobsDb: () => AnyKysely | null;
}

/** An app's instruments; see the module doc. */
export class AppMetrics {
  readonly #requestDuration: Histogram;
  /** Requests being served now, by method: counted here and read at collection (no SDK call per request). */
  readonly #active = new Map<string, number>();
  readonly #jobDuration: Histogram;
  readonly #loginFailures: Counter;
  /** Attribute sets already made, by their values: the same few come back on every request. */
  readonly #attributes = new Map<string, Attributes>();
  /** The request durations' attribute sets, by route (`''`: none matched), method and status class (bounded: a client may send any method). */
  readonly #durationAttributes = new Map<string, Map<string, Attributes[]>>();

  constructor(meter: Meter, sources: MetricSources) {
    this.#requestDuration = meter.createHistogram('http.server.request.duration', {
      unit: 's',
      description: 'Duration of HTTP server requests, by route and status class.',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    meter
      .createObservableUpDownCounter('http.server.active_requests', {
        unit: '{request}',
        description: 'HTTP server requests being served now.',
      })
      .addCallback((observer) => {
        for (const [method, count] of this.#active) observer.observe(count, this.#methodAttributes(method));
      });
    this.#jobDuration = meter.createHistogram('bindery.job.duration', {
      unit: 's',
      description: 'Duration of job, scheduled task and asynchronous listener runs in this process.',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    this.#loginFailures = meter.createCounter('bindery.auth.login_failures', {
      unit: '{attempt}',
      description: 'Failed logins: wrong credentials, or refused unchecked because of throttling.',
    });
    observePool(meter, sources);
    observeJobs(meter, sources.jobsDb);
  }

  /** A request started. */
  requestStarted(method: string): void {
    this.#active.set(method, (this.#active.get(method) ?? 0) + 1);
  }

  /**
   * A request finished.
   * @param route the route's path pattern, or `undefined` when none matched.
   * @param seconds its duration.
   */
  requestFinished(method: string, route: string | undefined, status: number, seconds: number): void {
    this.#active.set(method, (this.#active.get(method) ?? 1) - 1);
    const statusClass = Math.floor(status / 100);
    // By route, then method, then status class: no key string to build per request.
    let byMethod = this.#durationAttributes.get(route ?? '');
    if (byMethod === undefined) {
      if (this.#durationAttributes.size >= 1000) this.#durationAttributes.clear();
      this.#durationAttributes.set(route ?? '', (byMethod = new Map()));
    }
    let byClass = byMethod.get(method);
    if (byClass === undefined) {
      if (byMethod.size >= 100) byMethod.clear();
      byMethod.set(method, (byClass = []));
    }
    let attributes = byClass[statusClass];
    if (attributes === undefined)
      byClass[statusClass] = attributes = {
        'http.request.method': method,
        ...(route === undefined ? {} : { 'http.route': route }),
        'http.response.status_class': `${statusClass}xx`,
      };
    // The measurement's context is given, not looked up: it serves nothing here (no exemplars, no baggage-based views).
    this.#requestDuration.record(seconds, attributes, ROOT_CONTEXT);
  }

  #methodAttributes(method: string): Attributes {
    let attributes = this.#attributes.get(method);
    if (attributes === undefined) this.#remember(method, (attributes = { 'http.request.method': method }));
    return attributes;
  }

  /** Keep an attribute set (a bounded number: methods and routes are few, but a client may send any method). */
  #remember(key: string, attributes: Attributes): void {
    if (this.#attributes.size >= 1000) this.#attributes.clear();
    this.#attributes.set(key, attributes);
  }

  /** A job run finished. */
  jobFinished(name: string, kind: string, failed: boolean, seconds: number): void {
    this.#jobDuration.record(seconds, {
      'bindery.job.name': name,
      'bindery.job.kind': kind,
      'bindery.job.outcome': failed ? 'failure' : 'success',
    });
  }

  /** A login failed (`credentials`) or was refused by the throttle (`throttled`). */
  loginFailed(reason: string): void {
    this.#loginFailures.add(1, { 'bindery.auth.reason': reason });
  }
}

function observePool(meter: Meter, { pool, poolName }: MetricSources): void {
  const name = { 'db.client.connection.pool.name': poolName };
  const count = meter.createObservableGauge('db.client.connection.count', {
    unit: '{connection}',
    description: 'Connections of the database pool, by state: idle, or used by a query or transaction.',
  });
  const pending = meter.createObservableGauge('db.client.connection.pending_requests', {
    unit: '{request}',
    description: 'Queries and transactions waiting for a connection of the pool.',
  });
  const max = meter.createObservableGauge('db.client.connection.max', { unit: '{connection}', description: 'The size of the pool.' });
  meter.addBatchObservableCallback(
    (observer) => {
      observer.observe(count, pool.idleCount, { ...name, 'db.client.connection.state': 'idle' });
      observer.observe(count, pool.totalCount - pool.idleCount, { ...name, 'db.client.connection.state': 'used' });
      observer.observe(pending, pool.waitingCount, name);
      observer.observe(max, pool.options.max ?? 10, name);
    },
    [count, pending, max],
  );
}

function observeJobs(meter: Meter, jobsDb: () => AnyKysely | null): void {
  const jobs = meter.createObservableGauge('bindery.jobs', {
    unit: '{job}',
    description:
      'Jobs in the queue, by state: queued (due, waiting for a worker), waiting (due later: runAt or a retry), running, failed (no attempts left).',
  });
  jobs.addCallback(async (observer) => {
    const db = jobsDb();
    if (db === null) return;
    try {
      const { rows } = await sql<{ queued: number; waiting: number; running: number; failed: number }>`
        select
          count(*) filter (where locked_at is null and attempts < max_attempts and run_at <= now())::int as queued,
          count(*) filter (where locked_at is null and attempts < max_attempts and run_at > now())::int as waiting,
          count(*) filter (where locked_at is not null)::int as running,
          count(*) filter (where locked_at is null and attempts >= max_attempts)::int as failed
        from graphile_worker.jobs`.execute(db);
      const row = rows[0];
      if (row === undefined) return;
      for (const state of ['queued', 'waiting', 'running', 'failed'] as const) observer.observe(row[state], { 'bindery.job.state': state });
    } catch {
      // The database is away: no job counts in this collection (the pool's gauges say more).
    }
  });
}
