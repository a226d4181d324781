/**
 * Poll a condition with a deadline (tests never sleep a fixed time).
 */

/**
 * Call `check` every `intervalMs` until it returns a value other than
 * `undefined`; a throw from `check` ends the wait with that error.
 * @param what named in the timeout error.
 * @param timeoutMs deadline in milliseconds (default 10000).
 * @throws {Error} "timed out waiting for <what>" after `timeoutMs`.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
  intervalMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
