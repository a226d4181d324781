/**
 * The jobs runtime of one booted app: every task the workers run (jobs,
 * scheduled tasks, asynchronous listeners), the cron items, the queue, and
 * the worker (docs/jobs.md), over the queue backend of the app's database
 * engine (backend.ts; graphile-worker on PostgreSQL, the MySQL queue on
 * MySQL and MariaDB).
 *
 * The `jobs()` setup step makes it; `schedule()`, `events()` and plugins add
 * to it at boot; `bindery worker` and `serve --worker` start its worker once
 * every step has run. It is found from the app's services with
 * {@link jobsRuntimeOf}.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/connect.js';
import type { Services } from '../http/context.js';
import { ServiceNotSetUpError } from '../http/require-service.js';
import type { BackendWorker, CronSchedule, QueueBackend } from './backend.js';
import { checkCronPattern } from './cron-pattern.js';
import type { AnyJobDefinition } from './define-job.js';
import { JobDefinitionError, JobsNotSetUpError } from './errors.js';
import { Queue, type TaskRegistration } from './queue.js';
import { kindWord, runAttempt } from './run-attempt.js';
import { queueBackendFor, rememberQueueBackend } from './select-backend.js';
import { WorkerHeartbeat } from './worker-heartbeat.js';

export type { TaskRegistration };

/** Options of {@link JobsRuntime.startWorker}. */
export interface WorkerOptions {
  /** Jobs run at once (default `JOBS_CONCURRENCY`). */
  readonly concurrency?: number;
  /** Milliseconds between checks for jobs due later (retries, `runAt`); new jobs start at once through LISTEN/NOTIFY on PostgreSQL, at the next check on MySQL and MariaDB (default `JOBS_POLL_INTERVAL`). */
  readonly pollIntervalMs?: number;
  /** Milliseconds between heartbeats (default `JOBS_HEARTBEAT_INTERVAL`; docs/jobs.md "When a worker dies"). */
  readonly heartbeatIntervalMs?: number;
  /** Milliseconds without a heartbeat after which a worker is taken for dead and its jobs run again (default `JOBS_WORKER_DEAD_AFTER`). */
  readonly deadAfterMs?: number;
}

interface StartedWorker {
  readonly worker: BackendWorker;
  readonly heartbeat: WorkerHeartbeat;
  stopping?: Promise<void>;
}

/** A started worker. */
export interface RunningWorker {
  /** Resolves when the worker has stopped; rejects if it crashed. */
  readonly done: Promise<void>;
  /** Stop taking jobs, wait for the running ones, close the worker's connections. Idempotent. */
  stop(): Promise<void>;
}

/** The runtime; see the module doc. */
export class JobsRuntime {
  readonly queue: Queue;
  /** The queue backend of the app's database engine. */
  readonly backend: QueueBackend;
  readonly #tasks = new Map<string, TaskRegistration>();
  readonly #cron: CronSchedule[] = [];
  readonly #database: Database;
  readonly #log: FastifyBaseLogger;
  readonly #services: Services;
  readonly #appName: string;
  readonly #defaults: Required<WorkerOptions>;
  #worker: StartedWorker | undefined;

  /**
   * @internal Made by the `jobs()` setup step.
   * @throws {JobsEngineUnsupportedError} when the database's engine has no queue backend.
   */
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
    this.backend = queueBackendFor(options.database.engine);
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
    this.queue = new Queue(this, options.database.db, this.backend);
    rememberQueueBackend(options.database.db, this.backend);
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
   * Add a cron item for a registered scheduled task.
   * @throws {Error} from the cron parser for a bad pattern (the schedule step checks first).
   */
  addCronItem(item: CronSchedule): void {
    checkCronPattern(item.pattern);
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
  get cronItems(): readonly CronSchedule[] {
    return this.#cron;
  }

  /** Whether the worker is running in this process. */
  get workerRunning(): boolean {
    return this.#worker !== undefined && this.#worker.stopping === undefined;
  }

  /**
   * Create or update the queue backend's own schema (graphile-worker's
   * `graphile_worker`, which migrates itself under its own lock; nothing
   * for the MySQL queue, whose tables are migrations of the `jobs` set). The
   * `jobs()` step runs it at boot.
   */
  async migrate(): Promise<void> {
    await this.backend.migrate(this.#database, { log: this.#log, appName: this.#appName });
  }

  /**
   * Start the worker in this process: the backend's worker with every
   * registered task and cron item, with its heartbeat (docs/jobs.md "When a
   * worker dies").
   * @throws {JobsNotSetUpError} when a worker already runs in this process.
   */
  async startWorker(options: WorkerOptions = {}): Promise<RunningWorker> {
    if (this.#worker) throw new JobsNotSetUpError('A worker already runs in this process; start one per process.');
    const heartbeat = new WorkerHeartbeat({
      db: this.#database.db,
      engine: this.#database.engine,
      log: this.#log,
      timings: {
        intervalMs: options.heartbeatIntervalMs ?? this.#defaults.heartbeatIntervalMs,
        deadAfterMs: options.deadAfterMs ?? this.#defaults.deadAfterMs,
      },
    });
    const app = { services: this.#services, log: this.#log };
    let worker: BackendWorker;
    try {
      worker = await this.backend.startWorker(this.#database, {
        tasks: [...this.#tasks.keys()],
        cron: [...this.#cron],
        concurrency: options.concurrency ?? this.#defaults.concurrency,
        pollIntervalMs: options.pollIntervalMs ?? this.#defaults.pollIntervalMs,
        log: this.#log,
        appName: this.#appName,
        locksKnown: (locks) => heartbeat.start(locks),
        run: async (attempt) => {
          // No task's code runs before the heartbeat names this worker's lock: a crash from here on is recovered.
          await heartbeat.ready;
          await runAttempt(this.#tasks.get(attempt.name)!, attempt, app);
        },
      });
    } catch (error) {
      await heartbeat.stop({ remove: true });
      throw error;
    }
    const started: StartedWorker = { worker, heartbeat };
    this.#worker = started;
    worker.done.catch((error: unknown) => {
      // The row stays: once it is old, another worker unlocks whatever this one still held.
      void heartbeat.stop({ remove: false });
      this.#log.error({ err: error }, 'the worker stopped with an error; jobs no longer run in this process');
    });
    return {
      done: worker.done,
      stop: () => this.#stop(started),
    };
  }

  /** Stop the worker started in this process, if any (the `jobs()` step's close hook). */
  async stopWorker(): Promise<void> {
    if (this.#worker) await this.#stop(this.#worker);
  }

  #stop(started: StartedWorker): Promise<void> {
    started.stopping ??= (async () => {
      await started.worker.stop();
      const clean = await started.worker.done.then(
        () => true,
        () => false,
      );
      // After a clean stop the running jobs have finished and nothing is locked under this worker; after a crash the row stays for recovery.
      await started.heartbeat.stop({ remove: clean });
    })();
    return started.stopping;
  }
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
