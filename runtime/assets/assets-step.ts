/**
 * The `assets()` setup step (docs/pages.md "Assets"; docs/spec.md 4.6).
 */
import { resolve } from 'node:path';
import type { SetupStep } from '../app/setup-step.js';
import { loadAssets, type AssetManifest } from './asset-manifest.js';
import { assetRoutes } from './asset-routes.js';

declare module '../http/context.js' {
  interface Services {
    /** The app's static assets; present once `assets()` is set up. Pages use it through `it.asset(path)`. */
    readonly assets?: AssetManifest;
  }
}

/** Options of {@link assets}. */
export interface AssetsStepOptions {
  /** The folder, relative to the app root or absolute (default `app/assets`). */
  readonly dir?: string;
  /** The URL prefix (default `/assets`). */
  readonly prefix?: string;
}

/**
 * Serve the files of `app/assets/` at `/assets/<path>`, each hashed once at
 * startup: `it.asset('app.css')` in a page gives `/assets/app.css?v=<hash>`,
 * served with `Cache-Control: public, max-age=31536000, immutable`; the same
 * file under any other `v` (or none) is served with `no-cache` and its
 * `ETag` (304 on `If-None-Match`). Edit an asset: restart to rehash.
 *
 * @throws {BinderyError} `BINDERY_ASSETS_INVALID` at boot (unreadable folder, unservable file name).
 * @example setup: [session(), assets()]
 */
export function assets(options: AssetsStepOptions = {}): SetupStep {
  const prefix = (options.prefix ?? '/assets').replace(/\/+$/, '');
  return {
    name: 'assets',
    async setup(ctx) {
      const manifest = await loadAssets(resolve(ctx.app.root, options.dir ?? 'app/assets'), prefix);
      const { routes, handlers } = assetRoutes(manifest);
      ctx.addRoutes(routes, handlers);
      ctx.services.assets = manifest;
    },
  };
}
