/**
 * The storage service, `ctx.services.storage` (docs/storage.md): the disks,
 * streaming a file to a disk with its checks, signed URLs of file
 * references, the local disk's signed downloads, and cleaning up uploads
 * no row took.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { AnyKysely } from '../db/any-kysely.js';
import { requestedRange, type ByteRange } from './byte-range.js';
import type { HttpError } from '../errors/http-error.js';
import type { Disk } from './disk.js';
import { contentDisposition } from './disposition.js';
import { StorageInvalidError, StorageObjectMissingError, StorageSignatureError } from './errors.js';
import { isFileRef, type FileRef } from './file-ref.js';
import { detect, Inspector, type Detected } from './inspect.js';
import { forgetPending, isPending, listPending } from './pending.js';
import { LocalDisk } from './local-disk.js';
import { downloadPayload, type UrlSigner } from './url-signer.js';

/** Options of {@link Storage}. */
export interface StorageOptions {
  /** The disks by name; at least one. */
  readonly disks: readonly Disk[];
  /** The disk new files go to (`STORAGE_DISK`). */
  readonly defaultDisk: string;
  /** The app's database (the `storage_pending` table). */
  readonly db: AnyKysely;
  readonly signer: UrlSigner;
  /** How long a signed download URL works, ms (`STORAGE_URL_TTL`). */
  readonly urlTtlMs: number;
  /** How long a direct upload URL works, ms (`STORAGE_UPLOAD_TTL`). */
  readonly uploadTtlMs: number;
  /** Age after which an upload no row took is an orphan, ms (`STORAGE_ORPHAN_AGE`). */
  readonly orphanAgeMs: number;
  readonly log?: FastifyBaseLogger;
  /** The clock, ms since the epoch. */
  readonly now?: () => number;
}

/** A stream stored on a disk, with what its bytes are. */
export interface StoredObject extends Detected {
  readonly disk: string;
  readonly key: string;
  /** Size in bytes. */
  readonly size: number;
  /** SHA-256, hex. */
  readonly checksum: string;
}

/** A local download, checked and opened. */
export interface Download {
  /** The bytes to send: the whole object, or `range` of it. */
  readonly stream: Readable;
  /** The whole object's size in bytes. */
  readonly size: number;
  /** The part of the object the request asked for (a `Range` request: send 206), or `undefined` for all of it. */
  readonly range: ByteRange | undefined;
  readonly contentType: string;
  readonly disposition: string;
}

/** The request headers a download reads (`Range`, `If-Range`; docs/storage.md "Downloads"). */
export interface DownloadHeaders {
  readonly range?: string | undefined;
  readonly 'if-range'?: string | undefined;
}

/** The query of a local signed download URL. */
export interface DownloadQuery {
  readonly name?: string | undefined;
  readonly type?: string | undefined;
  readonly expires?: string | undefined;
  readonly signature?: string | undefined;
}

/** The storage service (see the module comment). */
export class Storage {
  readonly defaultDisk: string;
  readonly db: AnyKysely;
  readonly signer: UrlSigner;
  readonly urlTtlMs: number;
  readonly uploadTtlMs: number;
  readonly orphanAgeMs: number;
  readonly log: FastifyBaseLogger | undefined;
  readonly now: () => number;
  private readonly disks: ReadonlyMap<string, Disk>;

  /** @throws {StorageInvalidError} when `defaultDisk` is not one of `disks`. */
  constructor(options: StorageOptions) {
    this.disks = new Map(options.disks.map((d) => [d.name, d]));
    if (!this.disks.has(options.defaultDisk))
      throw new StorageInvalidError(
        `The default storage disk "${options.defaultDisk}" is not configured (STORAGE_DISK); configured: ${[...this.disks.keys()].join(', ')}.`,
      );
    this.defaultDisk = options.defaultDisk;
    this.db = options.db;
    this.signer = options.signer;
    this.urlTtlMs = options.urlTtlMs;
    this.uploadTtlMs = options.uploadTtlMs;
    this.orphanAgeMs = options.orphanAgeMs;
    this.log = options.log;
    this.now = options.now ?? Date.now;
  }

  /**
   * A disk by name (default: `STORAGE_DISK`'s).
   * @throws {StorageInvalidError} for a disk that is not configured.
   */
  disk(name: string = this.defaultDisk): Disk {
    const disk = this.disks.get(name);
    if (disk === undefined)
      throw new StorageInvalidError(`The storage disk "${name}" is not configured; configured: ${[...this.disks.keys()].join(', ')}.`);
    return disk;
  }

  /** A fresh object key: `uploads/<yyyy>/<mm>/<uuid>` (nothing of the client's in it). */
  newKey(): string {
    const d = new Date(this.now());
    return `uploads/${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${randomUUID()}`;
  }

  /**
   * Stream `source` to a new object, listed as an upload no row holds yet
   * (before its first byte is written), counting, hashing and detecting its
   * type as it goes. Over `maxBytes` the stream stops, the partial object
   * and its entry are removed, and {@link SizeLimitError} is thrown.
   * @throws {SizeLimitError}, {@link StorageUnavailableError} (503), or the source's own error (nothing is kept).
   */
  async store(source: Readable, options: { readonly maxBytes?: number; readonly disk?: string } = {}): Promise<StoredObject> {
    const disk = this.disk(options.disk);
    const key = this.newKey();
    const inspector = new Inspector(options.maxBytes ?? Number.POSITIVE_INFINITY);
    source.once('error', (error) => inspector.destroy(error));
    source.once('close', () => {
      if (!source.readableEnded) inspector.destroy(new Error('The upload stopped before its end.'));
    });
    try {
      await listPending(this.db, { disk: disk.name, key, state: 'uploaded' });
    } catch (error) {
      source.resume();
      throw error;
    }
    try {
      await disk.put(key, source.pipe(inspector));
    } catch (error) {
      source.resume();
      await this.remove({ disk: disk.name, key });
      throw error;
    }
    const detected = await detect(inspector.head());
    return { disk: disk.name, key, size: inspector.size, checksum: inspector.checksum(), ...detected };
  }

  /**
   * Remove uploads of a request that no row took: an object is removed
   * (with its entry) only while it is still listed as `uploaded`. Never
   * throws: a failure is logged, and the sweep removes what stays.
   */
  async discard(objects: readonly { readonly disk: string; readonly key: string }[]): Promise<void> {
    for (const o of objects) {
      try {
        if (await isPending(this.db, o.disk, o.key, 'uploaded')) await this.remove(o);
      } catch (error) {
        this.log?.warn({ err: error, disk: o.disk, key: o.key }, 'storage: an unused upload could not be removed; the orphan sweep will');
      }
    }
  }

  /** Delete an object and its entry (best effort: a failure is logged and left to the sweep). */
  async remove(o: { readonly disk: string; readonly key: string }): Promise<boolean> {
    try {
      await this.disk(o.disk).delete(o.key);
      await forgetPending(this.db, o.disk, o.key);
      return true;
    } catch (error) {
      this.log?.warn({ err: error, disk: o.disk, key: o.key }, 'storage: an object could not be removed; the orphan sweep will retry');
      return false;
    }
  }

  /**
   * A signed URL downloading the file of `ref` until `STORAGE_URL_TTL` from now
   * (local: bindery's signed route on `APP_URL`; S3: a presigned URL), or
   * `null` for `null`.
   */
  async url(ref: FileRef | null | undefined): Promise<string | null> {
    if (ref === null || ref === undefined) return null;
    return this.disk(ref.disk).downloadUrl(ref.key, { expiresInMs: this.urlTtlMs, name: ref.name, contentType: ref.type });
  }

  /**
   * Give every file reference in `columns` of `rows` its signed URL (the
   * output pass before serializing; the serializers read it as `url`).
   * Values that are not file references are left alone.
   */
  async signRows(rows: readonly object[], columns: readonly string[]): Promise<void> {
    for (const row of rows) {
      const r = row as Record<string, unknown>;
      for (const column of columns) {
        const value = r[column];
        if (isFileRef(value)) r[column] = { ...value, url: await this.url(value) };
      }
    }
  }

  /**
   * Check a local signed download URL and open its object.
   * @param disk the disk segment of the path; `encodedKey` the key, base64url.
   * @param headers the request's `Range` and `If-Range`: one byte range is opened alone ({@link requestedRange}).
   * @throws {StorageSignatureError} (403) expired or tampered; {@link StorageObjectMissingError} (404);
   *   {@link HttpError} 416 for a range outside the object.
   */
  async openDownload(disk: string, encodedKey: string, query: DownloadQuery, headers: DownloadHeaders = {}): Promise<Download> {
    const { name, type, expires, signature } = query;
    if (name === undefined || type === undefined || expires === undefined || signature === undefined)
      throw new StorageSignatureError('it is missing its signature');
    const target = this.disks.get(disk);
    const key = Buffer.from(encodedKey, 'base64url').toString('utf8');
    if (!(target instanceof LocalDisk)) throw new StorageSignatureError('the signature does not match');
    this.signer.verify(
      downloadPayload(disk, key, name, type, Number(expires)),
      signature,
      /^\d{1,12}$/.test(expires) ? Number(expires) : Number.NaN,
    );
    const info = await target.head(key);
    if (info === null) throw new StorageObjectMissingError(disk, key);
    const range = requestedRange(info.size, headers.range, headers['if-range']);
    return { stream: await target.get(key, range), size: info.size, range, contentType: type, disposition: contentDisposition(name, type) };
  }

  /** Store a buffer (an upload held in memory, attached to a row). */
  storeBuffer(data: Buffer): Promise<StoredObject> {
    return this.store(Readable.from([data]));
  }
}
