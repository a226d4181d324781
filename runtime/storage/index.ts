/**
 * Files: storage disks (a local folder, S3-compatible object storage), uploads
 * streamed to them, file references kept in rows, signed URLs, direct
 * uploads and the orphan sweep (docs/storage.md).
 */
export { storage, type StorageStepOptions } from './storage-step.js';
export { Storage, type StoredObject, type Download, type DownloadQuery } from './storage.js';
export type {
  Disk,
  PutOptions,
  ObjectInfo,
  DownloadUrlOptions,
  UploadTarget,
  UploadUrlOptions,
} from './disk.js';
export { LocalDisk, type LocalDiskOptions } from './local-disk.js';
export { S3Disk, type S3DiskOptions } from './s3-disk.js';
export { fileJson, isFileRef, type FileJson, type FileRef, type SignedFileRef } from './file-ref.js';
export type { UploadedFile } from './uploaded-file.js';
export { withFiles } from './file-changes.js';
export {
  confirmDirectUpload,
  createDirectUpload,
  type ConfirmOptions,
  type DirectUpload,
  type DirectUploadOptions,
} from './direct-uploads.js';
export { sweepOrphans, storageOf, type SweepResult } from './sweep.js';
export {
  SizeLimitError,
  StorageObjectMissingError,
} from './errors.js';
