/**
 * Errors of the session layer (docs/errors.md "session and csrf").
 */
import { BinderyError } from '../errors/bindery-error.js';
import type { ErrorCode } from '../errors/codes.js';

/** A session error with a registered code: a boot problem, or a misuse reported at request time (500). */
export class SessionError extends BinderyError {
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }

  override get name(): string {
    return 'SessionError';
  }
}
