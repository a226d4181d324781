/**
 * Direct uploads (docs/storage.md "Direct uploads"): the client sends a
 * large file straight to the disk — a presigned PUT on S3, bindery's signed
 * upload route on the local disk — and then confirms it; the confirm step
 * checks the object's size and type by content before a row may take it.
 */
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SizeLimitError, StorageSignatureError, uploadInvalid, uploadTooLarge } from './errors.js';
import { safeFileName } from './file-ref.js';
import { detect, Inspector, typeAllowed } from './inspect.js';
import { LocalDisk } from './local-disk.js';
import { isPending, listPending } from './pending.js';
import type { Storage } from './storage.js';
import type { UploadedFile } from './uploaded-file.js';

/** A direct upload handed to a client: where to send the bytes, and the token to confirm with. */
export interface DirectUpload {
  /** Send the bytes here, with `method` and `headers`. */
  readonly url: string;
  readonly method: 'PUT';
  readonly headers: Readonly<Record<string, string>>;
  /** The upload token: confirm with it once the bytes are up. */
  readonly token: string;
  /** When `url` stops working (RFC 3339). */
  readonly expires_at: string;
  /** The most bytes accepted. */
  readonly max_bytes: number;
}

/** Options of {@link createDirectUpload}. */
export interface DirectUploadOptions {
  /** What the upload is for (a route name): a token is confirmed only for the same purpose. */
  readonly purpose: string;
  /**
   * Who starts the upload: the signed-in user's ID (`ctx.auth.id`), or
   * `null` when no one is signed in. Only the same owner may confirm it.
   */
  readonly owner: string | null;
  /**
   * The record the upload is for, in any stable form (`documents/12`): the
   * token is confirmed for that record only.
   */
  readonly target: string;
  /** The most bytes accepted. */
  readonly maxBytes: number;
  /** The disk (default `STORAGE_DISK`'s). */
  readonly disk?: string;
}

/**
 * Start a direct upload: a fresh key listed as an upload no row holds, and
 * a URL valid for `STORAGE_UPLOAD_TTL`. The token binds the purpose, the
 * owner and the target (docs/storage.md "Direct uploads").
 * @throws {StorageUnavailableError} (503).
 * @example createDirectUpload(storage, { purpose: 'attachments.upload', owner: ctx.auth.id, target: `documents/${doc.id}`, maxBytes: 50 * 1024 * 1024 })
 */
export async function createDirectUpload(storage: Storage, options: DirectUploadOptions): Promise<DirectUpload> {
  const disk = storage.disk(options.disk);
  const key = storage.newKey();
  const expires = storage.signer.expiresIn(storage.uploadTtlMs);
  const token = storage.signer.uploadToken({
    disk: disk.name,
    key,
    maxBytes: options.maxBytes,
    purpose: options.purpose,
    owner: options.owner,
    target: options.target,
    expires,
  });
  await listPending(storage.db, { disk: disk.name, key, state: 'uploaded' });
  const target = await disk.uploadUrl(key, { expiresInMs: storage.uploadTtlMs, token });
  return { ...target, token, expires_at: new Date(expires * 1000).toISOString(), max_bytes: options.maxBytes };
}

/**
 * The local disk's upload route: store `body` at the token's key, at most
 * its `maxBytes` (413 beyond; nothing is kept).
 * @throws {StorageSignatureError} (403) for an expired or tampered token; {@link HttpError} 413 `BINDERY_UPLOAD_TOO_LARGE`.
 */
export async function receiveDirectUpload(storage: Storage, token: string, body: Readable): Promise<void> {
  const claims = storage.signer.openUploadToken(token);
  const disk = storage.disk(claims.disk);
  if (!(disk instanceof LocalDisk) || !(await isPending(storage.db, claims.disk, claims.key, 'uploaded')))
    throw new StorageSignatureError('the upload is unknown or already confirmed');
  const inspector = new Inspector(claims.maxBytes);
  body.once('error', (error) => inspector.destroy(error));
  try {
    await disk.put(claims.key, body.pipe(inspector));
  } catch (error) {
    body.resume();
    if (error instanceof SizeLimitError) throw uploadTooLarge('file', claims.maxBytes);
    throw error;
  }
}

/** Options of {@link confirmDirectUpload}. */
export interface ConfirmOptions {
  /** The purpose the token was made for. */
  readonly purpose: string;
  /** Who confirms: the signed-in user's ID (`ctx.auth.id`), or `null`; it must be the upload's owner. */
  readonly owner: string | null;
  /** The record the file is being attached to (`documents/12`); it must be the upload's target. */
  readonly target: string;
  /** The input field named in errors (default `token`). */
  readonly field?: string;
  /** The file's name as the client gives it (reduced to its last segment). */
  readonly name?: string;
  /** Allowed types by content: extensions or MIME types (`png`, `image/*`); absent: any. */
  readonly mimes?: readonly string[];
}

/**
 * Check an uploaded object before a row takes it: the token is this app's
 * and for `purpose`, started by `owner` for `target` (another user's token,
 * or one started for another record, is refused and its upload left as it
 * is, still usable by its owner); the object exists and is listed as an upload; its size
 * is within the token's limit and its type (by content) is allowed. An
 * object that fails is removed. The bytes are read once, streaming, for the
 * checksum and the type.
 * @returns the upload, as a multipart upload would bind (attach it with `FileChanges.attach`).
 * @throws {StorageSignatureError} (403); {@link HttpError} 413 `BINDERY_UPLOAD_TOO_LARGE` or 422 `BINDERY_UPLOAD_INVALID` naming `field`.
 */
export async function confirmDirectUpload(storage: Storage, token: string, options: ConfirmOptions): Promise<UploadedFile> {
  const field = options.field ?? 'token';
  const claims = storage.signer.openUploadToken(token, { allowExpired: true });
  if (claims.purpose !== options.purpose) throw new StorageSignatureError('it was made for another upload');
  if (claims.owner !== options.owner || claims.target !== options.target)
    throw new StorageSignatureError(
      'it was started by another user or for another record',
      'upload token',
      'Confirm it as the user and for the record it was started for, or start a new upload.',
    );
  const disk = storage.disk(claims.disk);
  if (!(await isPending(storage.db, claims.disk, claims.key, 'uploaded')))
    throw uploadInvalid(field, `The ${field} upload is unknown or already used; start a new upload.`);
  const info = await disk.head(claims.key);
  if (info === null) throw uploadInvalid(field, `The ${field} upload has no file yet; send the bytes to the upload URL first.`);
  if (info.size > claims.maxBytes) {
    await storage.remove(claims);
    throw uploadTooLarge(field, claims.maxBytes);
  }
  const inspector = new Inspector(claims.maxBytes);
  await pipeline(await disk.get(claims.key), inspector, new Writable({ write: (_chunk, _enc, done) => done() }));
  const detected = await detect(inspector.head());
  if (options.mimes !== undefined && !typeAllowed(detected.type, options.mimes)) {
    await storage.remove(claims);
    throw uploadInvalid(field, `The ${field} field must be a file of type: ${options.mimes.join(', ')}.`);
  }
  return {
    filename: safeFileName(options.name ?? 'file'),
    mimetype: 'application/octet-stream',
    encoding: 'binary',
    size: inspector.size,
    checksum: inspector.checksum(),
    type: detected.type,
    dimensions: detected.dimensions,
    data: null,
    stored: { disk: claims.disk, key: claims.key },
  };
}
