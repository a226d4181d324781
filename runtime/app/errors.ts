/**
 * Error classes of the boot (codes in `runtime/errors/codes.ts`, causes and
 * fixes in `docs/errors.md`).
 */
import { CodedError } from '../support/coded-error.js';

/** The app definition or module is invalid (`BINDERY_APP_INVALID`). */
export class AppDefinitionError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BINDERY_APP_INVALID', message, options);
  }
}

/** A setup step is duplicated, out of order, or misused (`BINDERY_SETUP_INVALID`; SPEC.md 7 rule 9). */
export class SetupError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BINDERY_SETUP_INVALID', message, options);
  }
}

/** The HTTP server could not listen (`BINDERY_LISTEN_FAILED`). */
export class ListenError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BINDERY_LISTEN_FAILED', message, options);
  }
}
