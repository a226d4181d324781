/**
 * Static assets (docs/spec.md 4.6; docs/pages.md "Assets"): hashed once at
 * startup, served with year-long caching under their current hash.
 */
export { assets, type AssetsStepOptions } from './assets-step.js';
export { AssetManifest, assetContentType, loadAssets, type Asset } from './asset-manifest.js';
export { assetRoutes, matchesEtag, IMMUTABLE, REVALIDATE } from './asset-routes.js';
