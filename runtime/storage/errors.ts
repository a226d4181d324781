/**
 * The errors of storage (docs/errors.md; docs/storage.md "Bad input").
 */
import { BinderyError } from '../errors/bindery-error.js';
import { HttpError } from '../errors/http-error.js';

/** A storage setting or call is unusable (boot or programming error). */
export class StorageInvalidError extends BinderyError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('BINDERY_STORAGE_INVALID', message, options);
  }

  override get name(): string {
    return 'StorageInvalidError';
  }
}

/** 503: the disk could not be reached or refused the operation. */
export class StorageUnavailableError extends HttpError {
  constructor(disk: string, operation: string, cause?: unknown) {
    super(
      'BINDERY_STORAGE_UNAVAILABLE',
      `The storage disk "${disk}" is unavailable (${operation} failed); nothing was written. Try again later.`,
      { cause },
    );
  }

  override get name(): string {
    return 'StorageUnavailableError';
  }
}

/** 404: no object at the key. */
export class StorageObjectMissingError extends HttpError {
  constructor(disk: string, key: string) {
    super('BINDERY_STORAGE_OBJECT_MISSING', `The file does not exist on the storage disk "${disk}" (key ${key}).`);
  }

  override get name(): string {
    return 'StorageObjectMissingError';
  }
}

/** 403: a signed URL or upload token is expired, tampered with or foreign. */
export class StorageSignatureError extends HttpError {
  /**
   * @param why what is wrong with it (`it has expired`).
   * @param what what was sent (default `signed URL`).
   * @param advice what to do (default `Ask for a new one.`).
   */
  constructor(why: string, what = 'signed URL', advice = 'Ask for a new one.') {
    super('BINDERY_STORAGE_SIGNATURE_INVALID', `This ${what} is not valid: ${why}. ${advice}`);
  }

  override get name(): string {
    return 'StorageSignatureError';
  }
}

/**
 * 413 naming the field: the file is larger than the field allows.
 * @param field the field's name as the client sent it (`avatar`).
 * @param maxBytes the field's limit in bytes.
 */
export function uploadTooLarge(field: string, maxBytes: number): HttpError {
  const message = `The ${field} field must not be greater than ${formatKilobytes(maxBytes)} kilobytes.`;
  return new HttpError('BINDERY_UPLOAD_TOO_LARGE', message, { fieldErrors: { [field]: message } });
}

/** 422 naming the field: an upload that cannot be used (wrong type, not uploaded, unknown token). */
export function uploadInvalid(field: string, message: string): HttpError {
  return new HttpError('BINDERY_UPLOAD_INVALID', message, { fieldErrors: { [field]: message } });
}

function formatKilobytes(bytes: number): string {
  const kb = bytes / 1024;
  return Number.isInteger(kb) ? String(kb) : kb.toFixed(1);
}

/** A stream went over its byte limit (thrown inside the stream; mapped to {@link uploadTooLarge} by the caller). */
export class SizeLimitError extends Error {
  constructor(readonly limit: number) {
    super(`The stream is larger than ${limit} bytes.`);
    this.name = 'SizeLimitError';
  }
}
