/**
 * Error class of events and listeners (code in `runtime/errors/codes.ts`, cause and fix in `docs/errors.md`).
 */
import { CodedError } from '../support/coded-error.js';

/** An event or listener is invalid, listed twice, or its payload was refused (`BINDERY_EVENT_INVALID`). */
export class EventError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BINDERY_EVENT_INVALID', message, options);
  }
}
