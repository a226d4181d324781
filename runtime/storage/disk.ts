/**
 * One storage disk: where stored files live (docs/storage.md "Disks").
 *
 * Every driver — the local folder, S3-compatible object storage — offers
 * the same operations on object keys: put a stream, get a stream, look at an
 * object, delete it, and make signed URLs to download or upload it
 * directly. Keys are made by bindery (`uploads/2026/11/<uuid>`), never from
 * a client's file name.
 */
import type { Readable } from 'node:stream';
import type { ByteRange } from './byte-range.js';
import { StorageInvalidError } from './errors.js';

/** Options of {@link Disk.put}. */
export interface PutOptions {
  /** The object's content type (kept by S3; the local disk serves the type a signed URL names). */
  readonly contentType?: string;
}

/** What {@link Disk.head} tells about an object. */
export interface ObjectInfo {
  /** Size in bytes. */
  readonly size: number;
}

/** Options of {@link Disk.downloadUrl}. */
export interface DownloadUrlOptions {
  /** How long the URL works, milliseconds. */
  readonly expiresInMs: number;
  /** The file name offered to the browser (`Content-Disposition`). */
  readonly name: string;
  /** The `Content-Type` the object is served with. */
  readonly contentType: string;
}

/** A signed direct upload target: send the bytes with `method` to `url`, with `headers`. */
export interface UploadTarget {
  readonly url: string;
  readonly method: 'PUT';
  readonly headers: Readonly<Record<string, string>>;
}

/** Options of {@link Disk.uploadUrl}. */
export interface UploadUrlOptions {
  /** How long the URL works, milliseconds. */
  readonly expiresInMs: number;
  /** The signed upload token (the local disk's upload route reads it). */
  readonly token: string;
}

/** A storage disk (see the module comment). Implementations: `LocalDisk`, `S3Disk`. */
export interface Disk {
  /** The disk's name in settings and file references: `local`, `s3`. */
  readonly name: string;
  /** The driver: `local` (a folder) or `s3` (S3-compatible object storage). */
  readonly driver: 'local' | 's3';
  /**
   * Store `body` at `key`, streaming: the bytes are written as they are
   * read, never held whole. If `body` fails (it is destroyed with an error,
   * e.g. over a size limit) nothing is left at `key`, and the error is rethrown.
   * @throws {StorageUnavailableError} (503) when the disk cannot be written.
   */
  put(key: string, body: Readable, options?: PutOptions): Promise<void>;
  /**
   * The object's bytes as a stream: all of them, or those of `range` (inclusive offsets, within the object).
   * @throws {StorageObjectMissingError} (404) when there is no object at `key`; {@link StorageUnavailableError} (503).
   */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** The object's size, or `null` when there is none. @throws {StorageUnavailableError} (503). */
  head(key: string): Promise<ObjectInfo | null>;
  /** Whether an object is at `key`. @throws {StorageUnavailableError} (503). */
  exists(key: string): Promise<boolean>;
  /** Remove the object at `key`; nothing happens when there is none. @throws {StorageUnavailableError} (503). */
  delete(key: string): Promise<void>;
  /** A URL that downloads the object until it expires (local: bindery's signed route; S3: a presigned URL). */
  downloadUrl(key: string, options: DownloadUrlOptions): Promise<string>;
  /** Where a client uploads the object's bytes directly (local: bindery's signed route; S3: a presigned PUT). */
  uploadUrl(key: string, options: UploadUrlOptions): Promise<UploadTarget>;
}

const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/**
 * Check an object key: `/`-separated segments of letters, digits, `.`, `_`
 * and `-`, none empty, none starting with `.` (so no `..`), at most 512
 * characters. Keys never come from clients; this is the last guard before
 * a key becomes a path.
 * @throws {StorageInvalidError} for any other key.
 */
export function checkKey(key: string): string {
  if (key.length > 512 || !KEY.test(key))
    throw new StorageInvalidError(`The storage key ${JSON.stringify(key.slice(0, 100))} is not valid.`);
  return key;
}
