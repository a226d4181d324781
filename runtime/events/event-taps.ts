/**
 * Taps on an app's events (docs/observability.md "Metrics"): a function
 * told of every event the app emits, whether or not `events()` is set up —
 * the `observability()` step counts failed and throttled logins
 * (`session:login_failed`) this way. A tap sees the event as it is emitted,
 * before its listeners run; it cannot change or stop it, and its errors are
 * ignored.
 */

/** Told the name and payload of each event emitted. Must not throw (what it throws is ignored). */
export type EventTap = (event: string, payload: unknown) => void;

const taps = new WeakMap<object, EventTap[]>();

/**
 * Tell `tap` of every event emitted by the app whose services these are.
 * @example tapEvents(ctx.services, (event, payload) => { if (event === 'session:login_failed') failures.add(1); });
 */
export function tapEvents(services: object, tap: EventTap): void {
  taps.set(services, [...(taps.get(services) ?? []), tap]);
}

/** Tell the app's taps of an event (what `emit` and `emitEvent` call). @internal */
export function notifyTaps(services: object, event: string, payload: unknown): void {
  const list = taps.get(services);
  if (list === undefined) return;
  for (const tap of list) {
    try {
      tap(event, payload);
    } catch {
      // A tap's failure never fails the emit.
    }
  }
}
