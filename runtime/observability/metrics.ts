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
 * pool's counts from the engine, the job counts by one query of the queue
 * backend (runtime/jobs/backend.ts `counts`). Nothing here runs per request but a count in the request-duration
 * histogram (kept by bindery, duration-histogram.ts) and an in-flight count
 * kept in a map.
 */
import type { Attributes, Counter, Histogram, Meter } from '@opentelemetry/api';
import type { DatabaseEngine } from '../db/engine.js';
import type { AnyKysely } from '../db/any-kysely.js';
import type { QueueBackend } from '../jobs/backend.js';
import { DURATION_BUCKETS, DurationHistogram } from './duration-histogram.js';

export { DURATION_BUCKETS };

/**
 * The most request-duration series (attribute sets) kept; later new ones are
 * counted in one series marked `otel.metric.overflow` (OpenTelemetry's
 * cardinality limit, 2,000 by default in its SDK).
 */
export const MAX_DURATION_SERIES = 2000;
const OVERFLOW: Attributes = { 'otel.metric.overflow': true };

/** The request-duration histogram of an app, before it is given to the metric readers. */
export function requestDurationHistogram(): DurationHistogram {
  return new DurationHistogram('http.server.request.duration', 'Duration of HTTP server requests, by route and status class.');
}

/** Where the job counts come from: the queue backend, asked on the app's database. */
export interface JobsSource {
  readonly backend: Pick<QueueBackend, 'counts'>;
  readonly db: AnyKysely;
}

/** Where the gauges read from. */
export interface MetricSources {
  /** The app's database engine, whose pool is counted (`db.client.connection.*`), and the pool's name in the attributes. */
  readonly pool: Pick<DatabaseEngine, 'poolStats'>;
  readonly poolName: string;
  /** The app's queue backend and database, to count jobs; `null` when the app has no `jobs()` (asked at each collection). */
  readonly jobsDb: () => JobsSource | null;
}

/** An app's instruments; see the module doc. */
export class AppMetrics {
  readonly #requestDuration: DurationHistogram;
  /** Requests being served now, by method: counted here and read at collection (no SDK call per request). */
  readonly #active = new Map<string, number>();
  readonly #jobDuration: Histogram;
  readonly #loginFailures: Counter;
  /** Attribute sets already made, by their values: the same few come back on every request. */
  readonly #attributes = new Map<string, Attributes>();
  /**
   * The request durations' series (attribute sets), by route (`''`: none
   * matched), method and status class; each made once and kept, so that
   * the histogram finds its series by identity. At most {@link MAX_DURATION_SERIES}.
   */
  readonly #durationAttributes = new Map<string, Map<string, Attributes[]>>();
  #durationSeries = 0;

  /**
   * @param requestDuration from {@link requestDurationHistogram}, given to the metric readers (metrics-export.ts).
   */
  constructor(meter: Meter, sources: MetricSources, requestDuration: DurationHistogram) {
    this.#requestDuration = requestDuration;
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
      advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
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
    if (byMethod === undefined) this.#durationAttributes.set(route ?? '', (byMethod = new Map()));
    let byClass = byMethod.get(method);
    if (byClass === undefined) byMethod.set(method, (byClass = []));
    let attributes = byClass[statusClass];
    if (attributes === undefined) {
      if (this.#durationSeries >= MAX_DURATION_SERIES) attributes = OVERFLOW;
      else {
        this.#durationSeries++;
        byClass[statusClass] = attributes = {
          'http.request.method': method,
          ...(route === undefined ? {} : { 'http.route': route }),
          'http.response.status_class': `${statusClass}xx`,
        };
      }
    }
    this.#requestDuration.record(attributes, seconds);
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
      const stats = pool.poolStats();
      observer.observe(count, stats.idle, { ...name, 'db.client.connection.state': 'idle' });
      observer.observe(count, stats.total - stats.idle, { ...name, 'db.client.connection.state': 'used' });
      observer.observe(pending, stats.waiting, name);
      observer.observe(max, stats.max, name);
    },
    [count, pending, max],
  );
}

function observeJobs(meter: Meter, jobsDb: () => JobsSource | null): void {
  const jobs = meter.createObservableGauge('bindery.jobs', {
    unit: '{job}',
    description:
      'Jobs in the queue, by state: queued (due, waiting for a worker), waiting (due later: runAt or a retry), running, failed (no attempts left).',
  });
  jobs.addCallback(async (observer) => {
    const source = jobsDb();
    if (source === null) return;
    try {
      const row = await source.backend.counts(source.db);
      for (const state of ['queued', 'waiting', 'running', 'failed'] as const) observer.observe(row[state], { 'bindery.job.state': state });
    } catch {
      // The database is away: no job counts in this collection (the pool's gauges say more).
    }
  });
}
