/**
 * The cache (docs/auth.md "The cache"): the `cache()` setup step,
 * `ctx.services.cache`, and its drivers.
 */
export type { Cache, CounterState } from './cache.js';
export { cache, CACHE_MIGRATIONS_DIR, CACHE_PRUNE_INTERVAL_MS, type CacheStepOptions } from './cache-step.js';
export { cacheSettings, CACHE_DRIVERS } from './settings.js';
export { DatabaseCache } from './drivers/database-cache.js';
export { MemoryCache } from './drivers/memory-cache.js';
export { CacheError } from './errors.js';
