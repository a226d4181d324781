/**
 * Polling a condition with a deadline (CONTRIBUTING.md "Tests": never sleep and hope).
 */

/**
 * Resolve once `condition` returns true; check every 25 ms.
 * @param what what is awaited, for the failure message.
 * @param timeoutMs the deadline (default 5 s).
 * @throws {Error} `timed out after N ms waiting for <what>`.
 */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
