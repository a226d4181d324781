/**
 * Static assets (docs/spec.md 4.6; docs/pages.md "Assets"): hashed once at
 * startup, served with year-long caching under their current hash.
 */
export { assets, type AssetsStepOptions } from './assets-step.js';
