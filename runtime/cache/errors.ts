/**
 * Errors of the cache (codes in `runtime/errors/codes.ts`, causes and fixes
 * in `docs/errors.md`).
 */
import { codedErrorClass } from '../errors/coded-error.js';

/** The cache driver cannot start (`BINDERY_CACHE_UNAVAILABLE`). */
export const CacheError = codedErrorClass('CacheError', 'BINDERY_CACHE_UNAVAILABLE');
/** An instance of {@link CacheError}. */
export type CacheError = InstanceType<typeof CacheError>;
