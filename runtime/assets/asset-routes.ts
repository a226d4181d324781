/**
 * Serving the assets (docs/spec.md 4.6: "the current hash is cacheable for a
 * year, any other revalidates (no-cache, ETag)"; docs/pages.md "Assets"):
 * one GET route per file, outside every middleware group.
 */
import type { FastifyRequest } from 'fastify';
import type { RouteHandler } from '../http/handler.js';
import { respond } from '../results/result.js';
import type { RouteDefinition } from '../routing/route-table.js';
import type { Asset, AssetManifest } from './asset-manifest.js';

/** `Cache-Control` of a URL carrying the current hash. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** `Cache-Control` of any other URL of the asset (no `?v=`, or an old hash). */
export const REVALIDATE = 'no-cache';

/** The routes and handlers serving every asset of `manifest`. */
export function assetRoutes(manifest: Pick<AssetManifest, 'assets'>): {
  routes: RouteDefinition[];
  handlers: Record<string, RouteHandler<{ v: string | undefined }, unknown>>;
} {
  const routes: RouteDefinition[] = [];
  const handlers: Record<string, RouteHandler<{ v: string | undefined }, unknown>> = {};
  for (const asset of manifest.assets) {
    const name = `assets:${asset.path}`;
    routes.push({
      name,
      method: 'GET',
      path: asset.urlPath,
      group: null,
      middleware: [],
      result: 'custom',
      fields: [{ key: 'v', type: { kind: 'string', array: false, nullable: false }, source: 'query', name: 'v', rules: [] }],
      validate: null,
      output: null,
      origin: `assets/${asset.path}`,
    });
    handlers[name] = (input, ctx) => serveAsset(asset, input.v, ctx.request);
  }
  return { routes, handlers };
}

function serveAsset(asset: Asset, version: string | undefined, request: FastifyRequest) {
  return respond((reply) => {
    reply.header('etag', asset.etag).header('cache-control', version === asset.hash ? IMMUTABLE : REVALIDATE);
    if (matchesEtag(request.headers['if-none-match'], asset.etag)) return reply.code(304).send();
    return reply.code(200).header('content-type', asset.contentType).send(asset.body);
  });
}

/** Whether an `If-None-Match` header lists `etag` (weak comparison, `*` matches). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === '*' || tag === etag || tag === `W/${etag}`) return true;
  }
  return false;
}
