/**
 * The cache settings (docs/auth.md "The cache"). Loaded with the core
 * settings at boot, so one error lists every bad one.
 */
import { defineSettings } from '../config/define-settings.js';
import { enumSetting } from '../config/parsers.js';

/** The cache drivers bindery has. */
export const CACHE_DRIVERS = ['database', 'memory'] as const;

/** The settings declaration of the `cache()` step. */
export const cacheSettings = defineSettings({
  CACHE_DRIVER: {
    description:
      'Where cached values and counters (login throttling, rate limits) live: database (the bindery_cache table, shared by every instance) or memory (this process only).',
    parser: enumSetting(CACHE_DRIVERS),
    default: 'database',
  },
});
