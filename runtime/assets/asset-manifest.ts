/**
 * Static assets hashed once at startup (docs/spec.md 4.6; docs/pages.md
 * "Assets"): every file under the assets folder is read, hashed (SHA-256)
 * and kept in memory; pages link to `/assets/<path>?v=<hash>`.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { BinderyError } from '../errors/bindery-error.js';
import type { AssetUrls } from '../views/page-data.js';

/** One asset, read at startup. */
export interface Asset {
  /** Path under the assets folder, with `/`: `app.css`, `img/logo.svg`. */
  readonly path: string;
  /** The URL path it is served at: `/assets/app.css`. */
  readonly urlPath: string;
  /** The first 16 hex characters of the SHA-256 of its bytes: the `?v=` of its URL. */
  readonly hash: string;
  /** `"<hash>"`: the strong entity tag. */
  readonly etag: string;
  readonly contentType: string;
  readonly body: Buffer;
}

/** Segments of an asset path: letters, digits, `.`, `_`, `-` (no leading dot). */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.pdf': 'application/pdf',
  '.webmanifest': 'application/manifest+json',
  '.xml': 'application/xml; charset=utf-8',
};

/** The content type of a file name (by extension; `application/octet-stream` when unknown). */
export function assetContentType(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** The assets of an app, by path. */
export class AssetManifest implements AssetUrls {
  readonly #assets: Map<string, Asset>;
  /** URL prefix, e.g. `/assets`. */
  readonly prefix: string;

  constructor(assets: readonly Asset[], prefix: string) {
    this.#assets = new Map(assets.map((a) => [a.path, a]));
    this.prefix = prefix;
  }

  /** Every asset, sorted by path. */
  get assets(): Asset[] {
    return [...this.#assets.values()];
  }

  /**
   * Add an asset made by code — a setup step's browser script, e.g.
   * `bindery/passkeys.js` — hashed now like the folder's files. The caller
   * serves it (`assetRoutes({ assets: [asset] })`): the assets step's routes
   * are made before later steps run.
   * @throws {BinderyError} `BINDERY_ASSETS_INVALID` when the path is taken or not a servable name.
   */
  add(path: string, body: Buffer, contentType: string = assetContentType(path)): Asset {
    if (this.#assets.has(path) || !path.split('/').every((segment) => SEGMENT.test(segment))) {
      throw new BinderyError(
        'BINDERY_ASSETS_INVALID',
        `The asset "${path}" cannot be added: ${this.#assets.has(path) ? 'the assets folder has a file of that name' : 'use letters, digits, ".", "_" and "-"'}.`,
      );
    }
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
    const asset: Asset = { path, urlPath: `${this.prefix}/${path}`, hash, etag: `"${hash}"`, contentType, body };
    this.#assets.set(path, asset);
    return asset;
  }

  /** The asset at `path` (`app.css`, also accepted with a leading `/`), or `undefined`. */
  get(path: string): Asset | undefined {
    return this.#assets.get(path.replace(/^\/+/, ''));
  }

  /**
   * `/assets/<path>?v=<hash>`.
   * @throws {Error} when there is no such asset (the message lists a few that exist).
   */
  url(path: string): string {
    const asset = this.get(path);
    if (asset === undefined) {
      const known = [...this.#assets.keys()].slice(0, 10);
      throw new Error(
        `There is no asset "${path}" in the assets folder${known.length === 0 ? ' (it is empty)' : ` (assets: ${known.join(', ')})`}.`,
      );
    }
    return `${asset.urlPath}?v=${asset.hash}`;
  }
}

/**
 * Read and hash every file under `dir` (recursively; files and folders
 * whose names start with `.` are skipped). A folder that does not exist
 * holds no assets.
 * @param prefix URL prefix, default `/assets`.
 * @throws {BinderyError} `BINDERY_ASSETS_INVALID` when the folder cannot be read or a file name cannot be served as it is.
 */
export async function loadAssets(dir: string, prefix = '/assets'): Promise<AssetManifest> {
  let files: string[];
  try {
    files = await listFiles(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new AssetManifest([], prefix);
    throw new BinderyError('BINDERY_ASSETS_INVALID', `The assets folder ${dir} cannot be read: ${(error as Error).message}.`, {
      cause: error,
    });
  }
  files.sort();
  const assets: Asset[] = [];
  for (const file of files) {
    const path = relative(dir, file).split(sep).join('/');
    if (!path.split('/').every((segment) => SEGMENT.test(segment))) {
      throw new BinderyError(
        'BINDERY_ASSETS_INVALID',
        `The asset ${file} cannot be served: use letters, digits, ".", "_" and "-" in asset file and folder names.`,
      );
    }
    const body = await readFile(file);
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
    assets.push({ path, urlPath: `${prefix}/${path}`, hash, etag: `"${hash}"`, contentType: assetContentType(path), body });
  }
  return new AssetManifest(assets, prefix);
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(full)));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}
