/**
 * Shutting down on signals (gracefully on SIGTERM/SIGINT, letting
 * in-flight requests finish; docs/boot.md "Shutdown").
 *
 * The first SIGINT, SIGTERM or SIGHUP starts the graceful shutdown; a second
 * one exits at once with code 1 (the embedded PostgreSQL is still told to
 * stop, by the exit listener `startEmbeddedPostgres` installs).
 */

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type ShutdownSignal = (typeof SIGNALS)[number];

/**
 * Install the handlers.
 * @param shutdown called once, with the first signal.
 * @param out progress text.
 * @returns a function removing the handlers.
 */
export function onShutdownSignals(shutdown: (signal: ShutdownSignal) => void, out: (text: string) => void): () => void {
  let received = false;
  const handler = (signal: ShutdownSignal) => {
    if (received) {
      out(`Received ${signal} again: exiting now.\n`);
      process.exit(1);
    }
    received = true;
    shutdown(signal);
  };
  for (const s of SIGNALS) process.on(s, handler);
  return () => {
    for (const s of SIGNALS) process.off(s, handler);
  };
}
