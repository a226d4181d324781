/**
 * graphile-worker's log lines, written through the app's pino logger.
 */
import type { FastifyBaseLogger } from 'fastify';
import { Logger } from 'graphile-worker';

/**
 * A graphile-worker `Logger` writing to `log`: its `error`, `warning`, `info`
 * and `debug` levels become pino's `error`, `warn`, `info` and `debug`, with
 * its scope (worker ID, task, job ID) as fields.
 */
export function workerLogger(log: FastifyBaseLogger): Logger {
  return new Logger((scope) => (level, message, meta) => {
    const fields = { worker: scope, ...(meta ?? {}) };
    switch (level as string) {
      case 'error': log.error(fields, message); break;
      case 'warning': log.warn(fields, message); break;
      case 'info': log.info(fields, message); break;
      default: log.debug(fields, message);
    }
  });
}
