/**
 * An S3-compatible disk (AWS S3, Cloudflare R2, MinIO…) through the AWS SDK
 * for JavaScript v3 (docs/storage.md "Disks"). Puts stream as multipart
 * uploads of 5 MiB parts, one part in flight, so memory stays flat whatever
 * the size; URLs are presigned (SigV4).
 */
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  checkKey,
  type Disk,
  type DownloadUrlOptions,
  type ObjectInfo,
  type PutOptions,
  type UploadTarget,
  type UploadUrlOptions,
} from './disk.js';
import type { ByteRange } from './byte-range.js';
import { StorageObjectMissingError, StorageUnavailableError } from './errors.js';
import { contentDisposition } from './disposition.js';

/** Options of {@link S3Disk}. */
export interface S3DiskOptions {
  /** The disk's name (default `s3`). */
  readonly name?: string;
  readonly bucket: string;
  readonly region: string;
  /** Another endpoint than AWS's (R2, MinIO, a test server), e.g. `http://127.0.0.1:9000`. */
  readonly endpoint?: string;
  /** Address buckets by path (`endpoint/bucket/key`), as most S3-compatible servers need. */
  readonly forcePathStyle?: boolean;
  /** Credentials; absent: the SDK's default chain (environment, instance role…). */
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
  /** Milliseconds an S3 request may take before the disk counts as unavailable (default 10000). */
  readonly timeoutMs?: number;
}

/** Bytes of one part of a streamed upload (S3's minimum). */
const PART_BYTES = 5 * 1024 * 1024;

/** A disk on S3-compatible object storage (see the module comment). */
export class S3Disk implements Disk {
  readonly name: string;
  readonly driver = 's3' as const;
  readonly bucket: string;
  readonly client: S3Client;

  constructor(options: S3DiskOptions) {
    this.name = options.name ?? 's3';
    this.bucket = options.bucket;
    const timeout = options.timeoutMs ?? 10_000;
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      ...(options.credentials ? { credentials: { ...options.credentials } } : {}),
      maxAttempts: 2,
      requestHandler: { connectionTimeout: Math.min(timeout, 5000), requestTimeout: timeout },
    });
  }

  async put(key: string, body: Readable, options: PutOptions = {}): Promise<void> {
    checkKey(key);
    let sourceError: unknown;
    body.once('error', (error) => {
      sourceError = error;
    });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: body, ...(options.contentType ? { ContentType: options.contentType } : {}) },
      queueSize: 1,
      partSize: PART_BYTES,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      if (sourceError !== undefined) throw sourceError;
      throw this.unavailable('put', error);
    }
    if (sourceError !== undefined) {
      await this.delete(key).catch(() => {});
      throw sourceError;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    checkKey(key);
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range === undefined ? {} : { Range: `bytes=${range.start}-${range.end}` }),
        }),
      );
      return out.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) throw new StorageObjectMissingError(this.name, key);
      throw this.unavailable('get', error);
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    checkKey(key);
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: out.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw this.unavailable('head', error);
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (isNotFound(error)) return;
      throw this.unavailable('delete', error);
    }
  }

  async downloadUrl(key: string, options: DownloadUrlOptions): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: checkKey(key),
      ResponseContentType: options.contentType,
      ResponseContentDisposition: contentDisposition(options.name, options.contentType),
    });
    return getSignedUrl(this.client, command, { expiresIn: Math.max(1, Math.ceil(options.expiresInMs / 1000)) });
  }

  async uploadUrl(key: string, options: UploadUrlOptions): Promise<UploadTarget> {
    const command = new PutObjectCommand({ Bucket: this.bucket, Key: checkKey(key), ContentType: 'application/octet-stream' });
    const url = await getSignedUrl(this.client, command, { expiresIn: Math.max(1, Math.ceil(options.expiresInMs / 1000)) });
    return { url, method: 'PUT', headers: { 'content-type': 'application/octet-stream' } };
  }

  /** Close the SDK's connections. */
  close(): void {
    this.client.destroy();
  }

  private unavailable(operation: string, error: unknown): StorageUnavailableError {
    return new StorageUnavailableError(this.name, operation, error);
  }
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}
