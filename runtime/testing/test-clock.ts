/**
 * A controllable clock for throttles and expiries in tests (docs/testing.md).
 */

/**
 * A clock tests move by hand: give it to `bootTestKit(app, { routes, clock })`
 * and every setup step of the app reads time from it (docs/testing.md#time);
 * or pass `clock.now` where one step takes `now`.
 */
export interface TestClock {
  /** The clock's time in milliseconds since the epoch; a function value, safe to pass around unbound. */
  readonly now: () => number;
  /** Move the clock forward by `ms` milliseconds (a negative `ms` throws). */
  advance(ms: number): void;
  /** Set the clock to `time` (a Date or milliseconds since the epoch). */
  set(time: Date | number): void;
}

/**
 * A clock standing still at `start` (default: the current time) until moved.
 *
 * @throws {RangeError} from `advance` for a negative or non-finite step.
 * @example
 *   const clock = testClock();
 *   const t = await bootTestKit<Handlers>(app, { routes, clock });
 *   clock.advance(61_000); // the login throttle's minute is over
 */
export function testClock(start: Date | number = Date.now()): TestClock {
  let current = typeof start === 'number' ? start : start.getTime();
  return {
    now: () => current,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`testClock.advance: ${ms} is not a duration in milliseconds`);
      current += ms;
    },
    set(time) {
      current = typeof time === 'number' ? time : time.getTime();
    },
  };
}
