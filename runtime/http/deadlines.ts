/**
 * The request timeout (`HTTP_REQUEST_TIMEOUT`; a late request answers 503, docs/http.md).
 *
 * One sweep per server instead of a timer per request: every request joins
 * an intrusive, doubly linked list in arrival order; since all requests of a
 * server share one timeout, the head is always the oldest. An unref'd
 * interval ticking every 1/20 of the timeout (10 ms to 1 s) answers the
 * expired ones. Per request this costs a `Date.now()` and a few pointer
 * writes (a `setTimeout` + `clearTimeout` pair costs several times more).
 * A request is answered between `timeoutMs` and `timeoutMs` + one tick.
 */

/** What the list links: the request context carries these fields itself. */
export interface DeadlineEntry {
  /** Epoch ms after which the request has timed out; 0 when not tracked. */
  deadline: number;
  prevPending: DeadlineEntry | null;
  nextPending: DeadlineEntry | null;
}

/** The in-flight requests of one server and their shared timeout. */
export class Deadlines<E extends DeadlineEntry> {
  readonly #timeoutMs: number;
  readonly #onTimeout: (entry: E) => void;
  #head: E | null = null;
  #tail: E | null = null;
  #timer: NodeJS.Timeout | null = null;

  /**
   * @param timeoutMs the timeout in milliseconds (> 0).
   * @param onTimeout called once for each request still tracked when its deadline passes (it is untracked first).
   */
  constructor(timeoutMs: number, onTimeout: (entry: E) => void) {
    this.#timeoutMs = timeoutMs;
    this.#onTimeout = onTimeout;
  }

  /** The sweep interval in milliseconds. */
  get tickMs(): number {
    return Math.min(1000, Math.max(10, Math.floor(this.#timeoutMs / 20)));
  }

  /** Start tracking `entry` from now. */
  track(entry: E): void {
    if (this.#timer === null) this.#start();
    entry.deadline = Date.now() + this.#timeoutMs;
    entry.nextPending = null;
    entry.prevPending = this.#tail;
    if (this.#tail === null) this.#head = entry;
    else this.#tail.nextPending = entry;
    this.#tail = entry;
  }

  /** Stop tracking `entry` (no-op when it is not tracked). */
  untrack(entry: E): void {
    if (entry.deadline === 0) return;
    entry.deadline = 0;
    const prev = entry.prevPending as E | null;
    const next = entry.nextPending as E | null;
    if (prev === null) this.#head = next;
    else prev.nextPending = next;
    if (next === null) this.#tail = prev;
    else next.prevPending = prev;
    entry.prevPending = null;
    entry.nextPending = null;
  }

  /** Stop the sweep (server close). Tracked requests are left alone. */
  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  #start(): void {
    this.#timer = setInterval(() => this.#sweep(), this.tickMs);
    this.#timer.unref();
  }

  #sweep(): void {
    const now = Date.now();
    let head = this.#head;
    while (head !== null && head.deadline <= now) {
      this.untrack(head);
      this.#onTimeout(head);
      head = this.#head;
    }
  }
}
