/**
 * The app logger (docs/observability.md "Logs"): pino at `LOG_LEVEL`,
 * writing to stdout in the `LOG_FORMAT`. Every log line of an app goes
 * through it — the framework's own, the access log, graphile-worker's (through
 * `runtime/jobs/graphile/worker-logger.ts`), the handlers' and jobs' `ctx.log` — so
 * they share one format: JSON lines (production, testing) or one readable
 * line each (development, by pino-pretty).
 *
 * Errors anywhere among a line's fields are written by `errorForLog`
 * (`runtime/support/log-error.ts`): type, message, stack, code and small
 * fields, never an object they carry.
 */
import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import { pino, type LoggerOptions as PinoOptions } from 'pino';
import type { LogFormat, LogLevel } from '../config/core-settings.js';
import { errorForLog, errorsForLog } from '../support/log-error.js';

/** Where log lines go: each `write` gets one whole line, ending with `\n`. */
export interface LogDestination {
  write(line: string): unknown;
}

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** `LOG_FORMAT` (default `json`). */
  readonly format?: LogFormat;
  /** Where lines go (default: stdout; pretty lines are coloured when stdout is a terminal that takes colours). */
  readonly destination?: LogDestination;
}

/**
 * The app logger.
 *
 * @param level `LOG_LEVEL`; `silent` writes nothing.
 * @param name the app name, added to every JSON line as `app` (pretty lines leave it out).
 * @param options the format and where lines go.
 * @returns a pino logger, which Fastify and bindery's request logs take as is.
 * @example const log = createLogger('info', 'notes', { format: 'pretty' }); log.warn({ code: 'X' }, 'careful')
 */
export function createLogger(level: LogLevel, name?: string, options: LoggerOptions = {}): FastifyBaseLogger {
  const settings: PinoOptions = {
    level,
    base: name ? { app: name } : null,
    serializers: { err: errorForLog },
    formatters: { log: errorsForLog },
  };
  if (options.format === 'pretty' && level !== 'silent') return pino(settings, prettyLines(options.destination));
  return options.destination === undefined ? pino(settings) : pino(settings, options.destination);
}

/**
 * A destination turning pino's JSON lines into readable ones:
 * `[14:03:07.412] WARN: message {"code":"…"}`, an error's stack on the
 * lines below. pino-pretty is loaded only here, so production never loads it.
 */
function prettyLines(destination: LogDestination | undefined): LogDestination {
  const require = createRequire(import.meta.url);
  const { prettyFactory } = require('pino-pretty') as typeof import('pino-pretty');
  const format = prettyFactory({
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,app',
    singleLine: true,
    ...(destination === undefined ? {} : { colorize: false }),
  });
  const to = destination ?? process.stdout;
  return { write: (line: string) => to.write(format(line)) };
}
