/**
 * Errors of the cache (codes in `runtime/errors/codes.ts`, causes and fixes
 * in `docs/errors.md`).
 */
import { CodedError } from '../support/coded-error.js';

/** The cache driver cannot start (`BINDERY_CACHE_UNAVAILABLE`). */
export class CacheError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BINDERY_CACHE_UNAVAILABLE', message, options);
  }
}
