/**
 * What the development dashboard keeps of recent work (docs/observability.md
 * "The development dashboard"): the last requests and job runs of this
 * process, each with its SQL statements, mails, queued jobs, listeners and
 * errors. Kept in memory only, newest first, at most `size` of each.
 */

/** A SQL statement of a work. */
export interface QueryEntry {
  /** The text with its literals replaced by `?` (values are never kept). */
  readonly text: string;
  /** Milliseconds from the start of the work to the statement's start. */
  readonly atMs: number;
  readonly durationMs: number;
  /** Rows returned or changed, when pg says. */
  readonly rows: number | null;
  readonly error?: string;
}

/** A mail sent by a work. */
export interface MailEntry {
  readonly subject: string;
  readonly to: readonly string[];
  readonly driver: string;
  error: string | undefined;
}

/** A job queued by a work. */
export interface JobEntry {
  readonly name: string;
  readonly kind: string;
  /** graphile-worker's ID, once queued. */
  id: string | undefined;
  error: string | undefined;
}

/** An error answered or thrown by a work. */
export interface ErrorEntry {
  readonly status: number | null;
  readonly code: string | undefined;
  readonly message: string;
  readonly stack: string | undefined;
}

/** A request or job run. */
export interface WorkRecord {
  /** The request ID, or `job-<graphile-worker ID>-<attempt>`. */
  readonly id: string;
  /** Epoch milliseconds when it started. */
  readonly startedAt: number;
  /** Milliseconds it took, once finished. */
  durationMs: number | undefined;
  /** The trace it is in, when traced. */
  readonly traceId: string | undefined;
  readonly queries: QueryEntry[];
  /** Statements beyond the ones kept. */
  droppedQueries: number;
  readonly mails: MailEntry[];
  readonly jobs: JobEntry[];
  readonly listeners: Array<{ readonly name: string; readonly event: string }>;
  readonly errors: ErrorEntry[];
}

/** A request. */
export interface RequestRecord extends WorkRecord {
  readonly kind: 'request';
  readonly method: string;
  /** The URL path, without the query string. */
  readonly path: string;
  /** The route's path pattern (`/notes/{id}`) and name, or `null` when none matched. */
  readonly route: { readonly path: string; readonly name: string } | null;
  /** The status answered (499: the client went away), once finished. */
  status: number | undefined;
  /** The signed-in user's ID, once known. */
  userId: string | null;
}

/** A job run. */
export interface RunRecord extends WorkRecord {
  readonly kind: 'run';
  readonly name: string;
  readonly taskKind: string;
  readonly jobId: string;
  readonly attempt: number;
  /** The request that queued it, if one did. */
  readonly requestId: string | undefined;
  outcome: 'running' | 'succeeded' | 'failed';
}

/** A new record's common fields. */
export function newWork(id: string, traceId: string | undefined): WorkRecord {
  return {
    id,
    startedAt: Date.now(),
    durationMs: undefined,
    traceId,
    queries: [],
    droppedQueries: 0,
    mails: [],
    jobs: [],
    listeners: [],
    errors: [],
  };
}

/** The recent records of one app; see the module doc. */
export class Recorder {
  readonly size: number;
  readonly #requests: RequestRecord[] = [];
  readonly #runs: RunRecord[] = [];

  /** @param size how many requests, and how many job runs, are kept (the oldest go first). */
  constructor(size: number) {
    this.size = size;
  }

  /** Keep a request (from its start: it fills in as it runs). */
  addRequest(record: RequestRecord): void {
    this.#requests.unshift(record);
    if (this.#requests.length > this.size) this.#requests.pop();
  }

  /** Keep a job run. */
  addRun(record: RunRecord): void {
    this.#runs.unshift(record);
    if (this.#runs.length > this.size) this.#runs.pop();
  }

  /** The kept requests, newest first. */
  requests(): readonly RequestRecord[] {
    return this.#requests;
  }

  /** The kept job runs, newest first. */
  runs(): readonly RunRecord[] {
    return this.#runs;
  }

  /** The kept request of that request ID. */
  request(id: string): RequestRecord | undefined {
    return this.#requests.find((r) => r.id === id);
  }

  /** The kept job run of that record ID. */
  run(id: string): RunRecord | undefined {
    return this.#runs.find((r) => r.id === id);
  }

  /** The kept job runs of jobs queued by that request. */
  runsQueuedBy(requestId: string): RunRecord[] {
    return this.#runs.filter((r) => r.requestId === requestId);
  }
}
