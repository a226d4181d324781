/**
 * The jobs runtime of one booted app: every task graphile-worker will run
 * (jobs, scheduled tasks, asynchronous listeners), the cron items, the
 * queue, and the worker (docs/jobs.md).
 *
 * The `jobs()` setup step makes it; `schedule()`, `events()` and plugins add
 * to it at boot; `bindery worker` and `serve --worker` start its worker once
 * every step has run. It is found from the app's services with
 * {@link jobsRuntimeOf}.
 */
import type { FastifyBaseLogger } from 'fastify';
import { parseCronItems, run, runMigrations, type CronItem, type JobHelpers, type Runner, type Task, type TaskList } from 'graphile-worker';
import type pg from 'pg';
import { runInContext, type ExecutionContext } from '../context/execution-context.js';
import type { Database } from '../db/connect.js';
import type { Services } from '../http/context.js';
import type { JobContext } from './define-job.js';
import { unwrapPayload } from './envelope.js';
import { JobDefinitionError, JobsNotSetUpError } from './errors.js';
import { ServiceNotSetUpError } from '../http/require-service.js';
import { createJobsPool } from './jobs-pool.js';
import { checkPayload, Queue, type TaskRegistration } from './queue.js';

export type { TaskRegistration };
import { workerLogger } from './worker-logger.js';
import type { AnyJobDefinition } from './define-job.js';
import { jobRunObserverOf } from './job-observer.js';
import { GraphileLocks } from './graphile-locks.js';
import { graphileIdempotencyKey, runAsJob } from './job-run.js';
import { WorkerHeartbeat } from './worker-heartbeat.js';

/** Options of {@link JobsRuntime.startWorker}. */
export interface WorkerOptions {
  /** Jobs run at once (default `JOBS_CONCURRENCY`). */
  readonly concurrency?: number;
  /** Milliseconds between checks for jobs due later (retries, `runAt`); new jobs start at once through LISTEN/NOTIFY (default `JOBS_POLL_INTERVAL`). */
  readonly pollIntervalMs?: number;
  /** Milliseconds between heartbeats (default `JOBS_HEARTBEAT_INTERVAL`; docs/jobs.md "When a worker dies"). */
  readonly heartbeatIntervalMs?: number;
  /** Milliseconds without a heartbeat after which a worker is taken for dead and its jobs run again (default `JOBS_WORKER_DEAD_AFTER`). */
  readonly deadAfterMs?: number;
}

interface StartedWorker {
  readonly runner: Runner;
  readonly pool: pg.Pool;
  readonly heartbeat: WorkerHeartbeat;
  /** Ends the worker's pool once, whoever asks first (the runner's end or a stop); later calls wait for the same end. */
  readonly endPool: () => Promise<void>;
  stopping?: Promise<void>;
}

/** A started worker. */
export interface RunningWorker {
  /** Resolves when the worker has stopped; rejects if it crashed. */
  readonly done: Promise<void>;
  /** Stop taking jobs, wait for the running ones, close the worker's pool. Idempotent. */
  stop(): Promise<void>;
}

const VIA_KIND = { job: 'job', schedule: 'schedule', listener: 'listener' } as const;

/** The runtime; see the module doc. */
export class JobsRuntime {
  readonly queue: Queue;
  readonly #tasks = new Map<string, TaskRegistration>();
  readonly #cron: CronItem[] = [];
  readonly #database: Database;
  readonly #log: FastifyBaseLogger;
  readonly #services: Services;
  readonly #appName: string;
  readonly #defaults: Required<WorkerOptions>;
  #worker: StartedWorker | undefined;

  /** @internal Made by the `jobs()` setup step. */
  constructor(options: {
    database: Database;
    log: FastifyBaseLogger;
    services: Services;
    appName: string;
    concurrency: number;
    pollIntervalMs: number;
    heartbeatIntervalMs: number;
    deadAfterMs: number;
  }) {
    this.#database = options.database;
    this.#log = options.log;
    this.#services = options.services;
    this.#appName = options.appName;
    this.#defaults = {
      concurrency: options.concurrency,
      pollIntervalMs: options.pollIntervalMs,
      heartbeatIntervalMs: options.heartbeatIntervalMs,
      deadAfterMs: options.deadAfterMs,
    };
    this.queue = new Queue(this, options.database.db);
  }

  /**
   * Register a job.
   * @param owner who declares it, for messages (`jobs()`, `the plugin "mailprovider"`).
   * @throws {JobDefinitionError} when the name is taken, or the worker already started.
   */
  registerJob(job: AnyJobDefinition, owner: string): void {
    this.register({
      name: job.name,
      kind: 'job',
      owner,
      ...(job.payload ? { parse: job.payload } : {}),
      policy: { maxAttempts: job.maxAttempts, queueName: job.queueName, priority: job.priority },
      run: (payload, ctx) => job.handle(payload, ctx),
      ...(job.description ? { description: job.description } : {}),
    });
  }

  /**
   * Register any task (scheduled tasks and listeners use it).
   * @throws {JobDefinitionError} when the name is taken, or the worker already started.
   */
  register(task: TaskRegistration): void {
    if (this.#worker)
      throw new JobDefinitionError(
        `${task.owner} adds "${task.name}" after the worker started; declare tasks in setup steps or plugin manifests.`,
      );
    const taken = this.#tasks.get(task.name);
    if (taken) {
      throw new JobDefinitionError(
        `${task.owner} declares the ${kindWord(task.kind)} "${task.name}", but ${taken.owner} already declares a ${kindWord(taken.kind)} of that name; jobs, scheduled tasks and listeners share one set of names.`,
      );
    }
    this.#tasks.set(task.name, task);
  }

  /**
   * Add a cron item for a registered scheduled task (graphile-worker's cron).
   * @throws {Error} from graphile-worker's parser for a bad pattern (the schedule step checks first).
   */
  addCronItem(item: CronItem): void {
    parseCronItems([item]);
    this.#cron.push(item);
  }

  /** The registered task of that name. */
  task(name: string): TaskRegistration | undefined {
    return this.#tasks.get(name);
  }

  /** Names of the registered tasks (of one kind), sorted. */
  taskNames(kind?: TaskRegistration['kind']): string[] {
    return [...this.#tasks.values()]
      .filter((t) => kind === undefined || t.kind === kind)
      .map((t) => t.name)
      .sort();
  }

  /** The cron items, in registration order. */
  get cronItems(): readonly CronItem[] {
    return this.#cron;
  }

  /** Whether the worker is running in this process. */
  get workerRunning(): boolean {
    return this.#worker !== undefined && this.#worker.stopping === undefined;
  }

  /**
   * Create or update graphile-worker's schema (`graphile_worker`; it migrates
   * itself, under its own lock). The `jobs()` step runs it at boot.
   */
  async migrate(): Promise<void> {
    const pool = createJobsPool(this.#database, 1, `bindery:${this.#appName}:jobs-migrate`, this.#log);
    try {
      await runMigrations({ pgPool: pool, logger: workerLogger(this.#log) });
    } finally {
      await pool.end();
    }
  }

  /**
   * Start the worker in this process: graphile-worker's `run` with every
   * registered task and cron item, on a pool of its own, with its heartbeat
   * (docs/jobs.md "When a worker dies").
   * @throws {JobsNotSetUpError} when a worker already runs in this process.
   */
  async startWorker(options: WorkerOptions = {}): Promise<RunningWorker> {
    if (this.#worker) throw new JobsNotSetUpError('A worker already runs in this process; start one per process.');
    const concurrency = options.concurrency ?? this.#defaults.concurrency;
    const pollInterval = options.pollIntervalMs ?? this.#defaults.pollIntervalMs;
    // The heartbeat starts when graphile-worker has made its pool (its lock ID known), before the pool takes a job.
    const locks = new GraphileLocks(() => heartbeat.start());
    const heartbeat = new WorkerHeartbeat({
      db: this.#database.db,
      locks,
      log: this.#log,
      timings: {
        intervalMs: options.heartbeatIntervalMs ?? this.#defaults.heartbeatIntervalMs,
        deadAfterMs: options.deadAfterMs ?? this.#defaults.deadAfterMs,
      },
    });
    const taskList: TaskList = {};
    for (const task of this.#tasks.values()) taskList[task.name] = this.#graphileTask(task, heartbeat);
    const pool = createJobsPool(this.#database, concurrency + 2, `bindery:${this.#appName}:worker`, this.#log);
    let runner: Runner;
    try {
      runner = await run({
        pgPool: pool,
        concurrency,
        pollInterval,
        noHandleSignals: true,
        taskList,
        parsedCronItems: parseCronItems([...this.#cron]),
        logger: workerLogger(this.#log),
        events: locks.events,
      });
    } catch (error) {
      await heartbeat.stop({ remove: true });
      await pool.end().catch(() => {});
      throw error;
    }
    heartbeat.start();
    let poolEnded: Promise<void> | undefined;
    const endPool = () => (poolEnded ??= pool.end().catch(() => {}));
    const worker: StartedWorker = { runner, pool, heartbeat, endPool };
    this.#worker = worker;
    const done = runner.promise.finally(endPool);
    done.catch((error: unknown) => {
      // The row stays: once it is old, another worker unlocks whatever this one still held.
      void heartbeat.stop({ remove: false });
      this.#log.error({ err: error }, 'the worker stopped with an error; jobs no longer run in this process');
    });
    return {
      done,
      stop: () => this.#stop(worker),
    };
  }

  /** Stop the worker started in this process, if any (the `jobs()` step's close hook). */
  async stopWorker(): Promise<void> {
    if (this.#worker) await this.#stop(this.#worker);
  }

  #stop(worker: StartedWorker): Promise<void> {
    worker.stopping ??= (async () => {
      try {
        await worker.runner.stop();
      } catch (error) {
        // Stopping twice, or after a crash, rejects; the runner is stopped either way.
        this.#log.debug({ err: error }, 'stopping the worker');
      }
      const clean = await worker.runner.promise.then(
        () => true,
        () => false,
      );
      // After a clean stop the running jobs have finished and nothing is locked under this worker; after a crash the row stays for recovery.
      await worker.heartbeat.stop({ remove: clean });
      await worker.endPool();
    })();
    return worker.stopping;
  }

  #graphileTask(task: TaskRegistration, heartbeat: WorkerHeartbeat): Task {
    return async (stored: unknown, helpers: JobHelpers) => {
      // No task's code runs before the heartbeat names this worker's lock: a crash from here on is recovered.
      await heartbeat.ready;
      const { payload, origin } = unwrapPayload(stored);
      const job = helpers.job;
      const attempt = job.attempts;
      const id = String(job.id);
      const idempotencyKey = graphileIdempotencyKey(job);
      const observation = jobRunObserverOf(this.#services)?.runStarted({
        name: task.name,
        kind: task.kind,
        id,
        attempt,
        maxAttempts: job.max_attempts,
        origin,
      });
      const traced = observation?.logFields();
      const log = this.#log.child({ job: task.name, job_id: id, attempt, ...traced });
      const ctx: JobContext = {
        services: this.#services,
        log,
        job: { id, name: task.name, attempt, maxAttempts: job.max_attempts, idempotencyKey },
        origin,
        signal: helpers.abortSignal,
      };
      const execution: ExecutionContext = {
        via: { kind: VIA_KIND[task.kind], name: task.name },
        origin: origin.actor,
        ...(origin.requestId !== undefined ? { requestId: origin.requestId } : {}),
        ...(observation?.work !== undefined ? { telemetry: observation.work } : {}),
      };
      const runTask = () =>
        runAsJob(idempotencyKey, () => runInContext(execution, () => task.run(task.parse ? checkPayload(task, payload) : payload, ctx)));
      try {
        await (observation === undefined ? runTask() : observation.within(runTask));
        observation?.finished(undefined);
      } catch (error) {
        observation?.finished(error);
        const left = job.max_attempts - attempt;
        const wait = Math.round(Math.exp(Math.min(attempt, 10)));
        log.warn(
          { err: error, code: 'BINDERY_JOB_FAILED' },
          `${kindWord(task.kind)} "${task.name}" (job ${id}) failed attempt ${attempt} of ${job.max_attempts}: ${(error as Error)?.message ?? String(error)}${left > 0 ? `; retrying in about ${wait} s` : '; no attempts left (bindery jobs:failed lists it)'}`,
        );
        throw error;
      }
    };
  }
}

function kindWord(kind: TaskRegistration['kind']): string {
  return kind === 'job' ? 'job' : kind === 'schedule' ? 'scheduled task' : 'listener';
}

const runtimes = new WeakMap<object, JobsRuntime>();

/** @internal Link a runtime to the app's services object (the `jobs()` step). */
export function attachJobsRuntime(services: object, runtime: JobsRuntime): void {
  runtimes.set(services, runtime);
}

/** The jobs runtime of a booted app (from its `services`), or `undefined` without `jobs()`. */
export function jobsRuntimeOf(services: object): JobsRuntime | undefined {
  return runtimes.get(services);
}

/**
 * The jobs runtime of a booted app.
 * @param what what needs it, for the message, e.g. `bindery worker`.
 * @throws {ServiceNotSetUpError} `BINDERY_SERVICE_NOT_SET_UP` naming `jobs()` when the app does not set it up.
 */
export function requireJobsRuntime(services: object, what: string): JobsRuntime {
  const runtime = runtimes.get(services);
  if (!runtime)
    throw new ServiceNotSetUpError(`${what} needs jobs() set up: add jobs() to the setup list of app/main.ts (docs/errors.md).`);
  return runtime;
}
