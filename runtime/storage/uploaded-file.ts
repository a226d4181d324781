/**
 * An uploaded file as a handler receives it (docs/spec.md 4.5 "Uploaded
 * files bind from form fields"; docs/storage.md "Uploads").
 */
import type { DetectedType, Dimensions } from './inspect.js';

/**
 * A file bound from a multipart form field, or confirmed from a direct
 * upload. With the `storage()` step its bytes were streamed to a disk while
 * the request was read (`stored`), and the object is removed when the
 * request ends unless a row took it ({@link FileChanges.attach}); without
 * it they are held in memory (`data`).
 */
export interface UploadedFile {
  /** The client's file name, reduced to its last path segment (never used in a storage key). */
  readonly filename: string;
  /** The `Content-Type` the client declared for the part (not trusted: see `type`). */
  readonly mimetype: string;
  /** The part's `Content-Transfer-Encoding` (usually `7bit`). */
  readonly encoding: string;
  /** Size in bytes. */
  readonly size: number;
  /** SHA-256 of the bytes, lower-case hex. */
  readonly checksum: string;
  /** The type detected from the bytes (magic numbers), or `null` when unknown. */
  readonly type: DetectedType | null;
  /** Width and height in pixels for images whose header was read, else `null`. */
  readonly dimensions: Dimensions | null;
  /** The bytes, when held in memory (no `storage()` step); `null` when stored. */
  readonly data: Buffer | null;
  /** The object holding the bytes, when stored; `null` when held in memory. */
  readonly stored: { readonly disk: string; readonly key: string } | null;
}
