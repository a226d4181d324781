/**
 * graphile-worker's log lines, written through the app's pino logger.
 */
import type { FastifyBaseLogger } from 'fastify';
import { Logger } from 'graphile-worker';

/** The fields of a job row that its log lines keep; the payload (addresses, tokens…) is left out. */
const JOB_FIELDS = ['id', 'task_identifier', 'job_queue_id', 'queue_name', 'attempts', 'max_attempts', 'run_at'] as const;

/**
 * A graphile-worker `Logger` writing to `log`: its `error`, `warning`, `info`
 * and `debug` levels become pino's `error`, `warn`, `info` and `debug`, with
 * its scope (worker ID, task, job ID) as fields. A job row in a line's
 * metadata is cut down to {@link JOB_FIELDS}: graphile-worker logs the whole
 * row, payload included, and payloads carry personal data (email addresses)
 * that has no place in logs.
 */
export function workerLogger(log: FastifyBaseLogger): Logger {
  return new Logger((scope) => (level, message, meta) => {
    const fields: Record<string, unknown> = { ...(Object.keys(scope).length > 0 ? { worker: scope } : {}), ...(meta ?? {}) };
    if (typeof fields.job === 'object' && fields.job !== null) fields.job = jobSummary(fields.job as Record<string, unknown>);
    switch (level as string) {
      case 'error':
        log.error(fields, message);
        break;
      case 'warning':
        log.warn(fields, message);
        break;
      case 'info':
        log.info(fields, message);
        break;
      default:
        log.debug(fields, message);
    }
  });
}

function jobSummary(job: Record<string, unknown>): Record<string, unknown> {
  const summary: Record<string, unknown> = {};
  for (const key of JOB_FIELDS) if (job[key] !== undefined) summary[key] = job[key];
  return summary;
}
