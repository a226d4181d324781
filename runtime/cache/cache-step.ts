/**
 * The `cache()` setup step (docs/boot.md "Setup steps"; docs/auth.md "The
 * cache"): `ctx.services.cache`, the setting `CACHE_DRIVER` and the
 * migration set `cache` (table `bindery_cache`).
 */
import { fileURLToPath } from 'node:url';
import type { SetupStep } from '../app/setup-step.js';
import type { Cache } from './cache.js';
import { DatabaseCache } from './drivers/database-cache.js';
import { MemoryCache } from './drivers/memory-cache.js';
import { CacheError } from './errors.js';
import { cacheSettings } from './settings.js';

/** The folder of the `cache` migration set. */
export const CACHE_MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** How often expired entries are deleted (ms). */
export const CACHE_PRUNE_INTERVAL_MS = 3_600_000;

/** Options of {@link cache}. */
export interface CacheStepOptions {
  /** Clock in milliseconds since the epoch (default the app's, `ctx.now`). */
  readonly now?: () => number;
}

/**
 * The cache of an app: short-lived values and fixed-window counters shared by
 * every instance (database driver) or kept in this process (memory driver).
 * List it before `auth()`, which counts login attempts in it (docs/spec.md 5.1 rule 8).
 *
 * Adds the setting `CACHE_DRIVER` (`database`, the default, or `memory`), the
 * migration set `cache` (table `bindery_cache`; applied whatever the driver),
 * and `ctx.services.cache` ({@link Cache}). Expired entries are deleted at
 * boot and every hour.
 *
 * @throws {SettingsError} at boot for an unknown `CACHE_DRIVER`.
 * @throws {CacheError} `BINDERY_CACHE_UNAVAILABLE` at boot when the database driver cannot use its table.
 * @example
 *   setup: [cache(), session(), auth({ users })]
 *   await ctx.services.cache!.increment(`forgot:${ip}`, 60_000);
 */
export function cache(options: CacheStepOptions = {}): SetupStep {
  return {
    name: 'cache',
    settings: cacheSettings,
    migrations: [{ source: 'cache', dir: CACHE_MIGRATIONS_DIR }],
    async setup(ctx) {
      const { CACHE_DRIVER } = ctx.settingsOf(cacheSettings);
      const now = options.now ?? ctx.now;
      let service: Cache;
      let prune: () => Promise<number>;
      if (CACHE_DRIVER === 'memory') {
        const memory = new MemoryCache(now);
        service = memory;
        prune = async () => memory.prune();
      } else {
        const database = new DatabaseCache(ctx.database.db, now);
        service = database;
        prune = () => database.prune();
        try {
          await prune();
        } catch (error) {
          throw new CacheError(
            `CACHE_DRIVER=database cannot use the table bindery_cache: ${(error as Error).message}. Run "bindery migrate" (the cache migration set creates it), or set CACHE_DRIVER=memory for a single instance.`,
            { cause: error },
          );
        }
      }
      const timer = setInterval(() => {
        prune().then(
          (n) => {
            if (n > 0) ctx.log.debug({ deleted: n }, 'expired cache entries deleted');
          },
          (error: unknown) => ctx.log.warn({ err: error, code: 'BINDERY_CACHE_UNAVAILABLE' }, 'deleting expired cache entries failed'),
        );
      }, CACHE_PRUNE_INTERVAL_MS);
      timer.unref();
      ctx.onClose(() => clearInterval(timer));
      ctx.services.cache = service;
    },
  };
}
