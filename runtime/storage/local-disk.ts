/**
 * The local disk: objects as files under a folder (docs/storage.md "Disks"),
 * `.data/storage` by default. A put streams to a temporary file next to the
 * target and renames it into place once complete, so a key never shows a
 * partial object. URLs point at bindery's signed routes (the `storage()`
 * step serves them).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ByteRange } from './byte-range.js';
import { checkKey, type Disk, type DownloadUrlOptions, type ObjectInfo, type UploadTarget, type UploadUrlOptions } from './disk.js';
import { StorageObjectMissingError, StorageUnavailableError } from './errors.js';
import { downloadPayload, type UrlSigner } from './url-signer.js';

/** Options of {@link LocalDisk}. */
export interface LocalDiskOptions {
  /** The disk's name (default `local`). */
  readonly name?: string;
  /** The folder, absolute. Made when missing. */
  readonly root: string;
  /** Where the app's storage routes are: `APP_URL` and the route prefix, e.g. `https://example.com/storage`. */
  readonly baseUrl: string;
  readonly signer: UrlSigner;
}

/** A disk on the local file system (see the module comment). */
export class LocalDisk implements Disk {
  readonly name: string;
  readonly driver = 'local' as const;
  readonly root: string;
  private readonly baseUrl: string;
  private readonly signer: UrlSigner;

  constructor(options: LocalDiskOptions) {
    this.name = options.name ?? 'local';
    this.root = resolve(options.root);
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.signer = options.signer;
  }

  /** The file of `key` (checked to stay under the root). */
  pathOf(key: string): string {
    const path = resolve(this.root, checkKey(key));
    if (!path.startsWith(this.root + sep)) throw new StorageObjectMissingError(this.name, key);
    return path;
  }

  async put(key: string, body: Readable): Promise<void> {
    const path = this.pathOf(key);
    const temporary = join(dirname(path), `.${randomBytes(8).toString('hex')}.part`);
    try {
      await mkdir(dirname(path), { recursive: true });
    } catch (error) {
      body.destroy();
      throw new StorageUnavailableError(this.name, 'put', error);
    }
    try {
      await pipeline(body, createWriteStream(temporary, { flags: 'wx' }));
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => {});
      if ((error as NodeJS.ErrnoException).syscall !== undefined) throw new StorageUnavailableError(this.name, 'put', error);
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const path = this.pathOf(key);
    const info = await this.head(key);
    if (info === null) throw new StorageObjectMissingError(this.name, key);
    return createReadStream(path, range === undefined ? undefined : { start: range.start, end: range.end });
  }

  async head(key: string): Promise<ObjectInfo | null> {
    const path = this.pathOf(key);
    try {
      const s = await stat(path);
      return s.isFile() ? { size: s.size } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
      throw new StorageUnavailableError(this.name, 'head', error);
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    try {
      await rm(path, { force: true });
    } catch (error) {
      throw new StorageUnavailableError(this.name, 'delete', error);
    }
  }

  async downloadUrl(key: string, options: DownloadUrlOptions): Promise<string> {
    const expires = this.signer.expiresIn(options.expiresInMs);
    const signature = this.signer.sign(downloadPayload(this.name, key, options.name, options.contentType, expires));
    const query = new URLSearchParams({ name: options.name, type: options.contentType, expires: String(expires), signature });
    return `${this.baseUrl}/${encodeURIComponent(this.name)}/${Buffer.from(key).toString('base64url')}?${query}`;
  }

  async uploadUrl(_key: string, options: UploadUrlOptions): Promise<UploadTarget> {
    return {
      url: `${this.baseUrl}/uploads?token=${encodeURIComponent(options.token)}`,
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
    };
  }
}
