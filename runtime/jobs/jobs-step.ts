/**
 * The `jobs()` setup step (docs/jobs.md).
 *
 * At boot it picks the queue backend of the database engine (graphile-worker
 * on PostgreSQL, the MySQL queue on MySQL and MariaDB; another engine stops
 * the boot with `BINDERY_JOBS_ENGINE_UNSUPPORTED`) and migrates its schema
 * (`graphile_worker`, which migrates itself; the step's own migration set
 * `jobs`, one folder per engine, holds the worker heartbeats of docs/jobs.md
 * "When a worker dies" and, on MySQL and MariaDB, the queue's tables),
 * registers the app's jobs, puts the queue in `ctx.services.queue`, and asks
 * requests to run inside their execution context so queued jobs learn who
 * queued them (docs/spec.md 5.8). The worker is not
 * started here: `bindery worker` or `bindery serve --worker` start it once
 * every step (and plugin) has added its tasks; shutdown stops it before the
 * database closes.
 */
import { fileURLToPath } from 'node:url';
import type { SetupStep } from '../app/setup-step.js';
import type { CrossSettingProblem } from '../config/setting.js';
import { defineSettings } from '../config/define-settings.js';
import { durationSetting, integerSetting } from '../config/parsers.js';
import type { Services } from '../http/context.js';
import { JobsFailedCommand } from './commands/jobs-failed.js';
import { JobsRetryCommand } from './commands/jobs-retry.js';
import { JobDefinitionError } from './errors.js';
import { attachJobsRuntime, JobsRuntime } from './jobs-runtime.js';
import type { Queue } from './queue.js';
import type { AnyJobDefinition } from './define-job.js';

declare module '../http/context.js' {
  interface Services {
    /** The job queue (`jobs()` setup step): `await ctx.services.queue.add(job, payload, { tx })`. */
    queue: Queue;
  }
}

/** Settings of the `jobs()` step. */
export const jobsSettings = defineSettings(
  {
    JOBS_CONCURRENCY: {
      description: 'How many jobs one worker process runs at the same time (bindery worker, bindery serve --worker).',
      parser: integerSetting({ min: 1, max: 100 }),
      default: '5',
    },
    JOBS_POLL_INTERVAL: {
      description:
        'How often the worker looks for jobs that became due (retries, jobs queued to run later); new jobs start at once on PostgreSQL, within this interval on MySQL and MariaDB.',
      parser: durationSetting({ min: 100, max: 3_600_000 }),
      default: '2s',
    },
    JOBS_HEARTBEAT_INTERVAL: {
      description:
        'How often a running worker records that it is alive (table jobs_worker_heartbeats) and looks for workers that stopped doing so, to run their jobs again.',
      parser: durationSetting({ min: 100, max: 600_000 }),
      default: '10s',
    },
    JOBS_WORKER_DEAD_AFTER: {
      description:
        'A worker whose last heartbeat is older than this is taken for dead (killed, out of memory): another worker unlocks its running jobs, which run again. At least 3 heartbeat intervals.',
      parser: durationSetting({ min: 1000, max: 14_400_000 }),
      default: '1m',
    },
  },
  { check: (values) => checkHeartbeat(values.JOBS_HEARTBEAT_INTERVAL, values.JOBS_WORKER_DEAD_AFTER) },
);

/** A worker must be able to miss a beat or two without being taken for dead. */
function checkHeartbeat(intervalMs: number, deadAfterMs: number): CrossSettingProblem[] {
  if (deadAfterMs >= 3 * intervalMs) return [];
  return [
    {
      names: ['JOBS_WORKER_DEAD_AFTER', 'JOBS_HEARTBEAT_INTERVAL'],
      message: `JOBS_WORKER_DEAD_AFTER must be at least 3 times JOBS_HEARTBEAT_INTERVAL (${3 * intervalMs} ms), so that one late heartbeat does not make a live worker look dead; got ${deadAfterMs} ms`,
    },
  ];
}

/** The folder of the `jobs` migration set: `postgres/` (table `jobs_worker_heartbeats`) and `mysql/` (that table and the MySQL queue's). */
export const JOBS_MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Options of {@link jobs}. */
export interface JobsOptions {
  /** The app's own jobs (plugins bring theirs in their manifests). */
  readonly jobs?: readonly AnyJobDefinition[];
}

/**
 * The setup step that brings jobs to an app: list it before `schedule()`,
 * `events()` and the plugins.
 *
 * @param options `jobs`: the app's jobs.
 * @returns the step to put in `defineApp({ setup: [...] })`.
 * @throws {JobDefinitionError} when a job is listed twice.
 * @example
 *   setup: [jobs({ jobs: [sendWelcome] }), schedule({ tasks: [pruneDocuments] }), events(), ...plugins(pluginList)]
 */
export function jobs(options: JobsOptions = {}): SetupStep {
  const list = options.jobs ?? [];
  const names = new Set<string>();
  for (const job of list) {
    if (names.has(job.name)) throw new JobDefinitionError(`jobs() lists the job "${job.name}" twice; keep one.`);
    names.add(job.name);
  }
  return {
    name: 'jobs',
    call: 'jobs()',
    settings: jobsSettings,
    migrations: [{ source: 'jobs', dir: JOBS_MIGRATIONS_DIR }],
    commands: [JobsFailedCommand, JobsRetryCommand],
    async setup(ctx) {
      ctx.useExecutionContext();
      const settings = ctx.settingsOf(jobsSettings);
      const runtime = new JobsRuntime({
        database: ctx.database,
        log: ctx.log,
        services: ctx.services as unknown as Services,
        appName: ctx.app.name,
        concurrency: settings.JOBS_CONCURRENCY,
        pollIntervalMs: settings.JOBS_POLL_INTERVAL,
        heartbeatIntervalMs: settings.JOBS_HEARTBEAT_INTERVAL,
        deadAfterMs: settings.JOBS_WORKER_DEAD_AFTER,
      });
      for (const job of list) runtime.registerJob(job, 'jobs()');
      await runtime.migrate();
      ctx.services.queue = runtime.queue;
      attachJobsRuntime(ctx.services, runtime);
      ctx.onClose(() => runtime.stopWorker());
    },
  };
}
