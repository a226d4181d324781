/**
 * The app logger: pino writing JSON lines to stdout at `LOG_LEVEL`
 * (docs/settings.md `LOG_LEVEL`). Fastify uses it for request logs.
 */
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import type { LogLevel } from '../config/core-settings.js';

/**
 * @param level `LOG_LEVEL`; `silent` writes nothing.
 * @param name the app name, added to every line as `app`.
 */
export function createLogger(level: LogLevel, name?: string): FastifyBaseLogger {
  return pino({ level, base: name ? { app: name } : null });
}
