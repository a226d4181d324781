/**
 * Files: storage disks (a local folder, S3-compatible object storage), uploads
 * streamed to them, file references kept in rows, signed URLs, direct
 * uploads and the orphan sweep (docs/storage.md).
 */
export { storage, STORAGE_MIGRATIONS_DIR, type StorageStepOptions } from './storage-step.js';
export { Storage, type StorageOptions, type StoredObject, type Download, type DownloadQuery } from './storage.js';
export { storageSettings, STORAGE_DISKS } from './settings.js';
export {
  checkKey,
  type Disk,
  type PutOptions,
  type ObjectInfo,
  type DownloadUrlOptions,
  type UploadTarget,
  type UploadUrlOptions,
} from './disk.js';
export { LocalDisk, type LocalDiskOptions } from './local-disk.js';
export { S3Disk, type S3DiskOptions } from './s3-disk.js';
export { UrlSigner, type UploadClaims } from './url-signer.js';
export { fileJson, isFileRef, safeFileName, type FileJson, type FileRef, type SignedFileRef } from './file-ref.js';
export type { UploadedFile } from './uploaded-file.js';
export { detect, typeAllowed, Inspector, HEAD_BYTES, type Detected, type DetectedType, type Dimensions } from './inspect.js';
export { contentDisposition, isInline } from './disposition.js';
export { FileChanges, withFiles } from './file-changes.js';
export {
  confirmDirectUpload,
  createDirectUpload,
  receiveDirectUpload,
  type ConfirmOptions,
  type DirectUpload,
  type DirectUploadOptions,
} from './direct-uploads.js';
export { sweepOrphans, storageOf, type SweepResult } from './sweep.js';
export {
  SizeLimitError,
  StorageInvalidError,
  StorageObjectMissingError,
  StorageSignatureError,
  StorageUnavailableError,
  uploadInvalid,
  uploadTooLarge,
} from './errors.js';
