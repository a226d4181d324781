/**
 * The cache (docs/auth.md "The cache"): the `cache()` setup step,
 * `ctx.services.cache`, and its drivers.
 */
export type { Cache } from './cache.js';
export { cache, type CacheStepOptions } from './cache-step.js';
