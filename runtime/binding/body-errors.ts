/**
 * The errors of body decoding (docs/spec.md 4.5 step 1, docs/spec.md 7: 400, 413, 415).
 */
import { HttpError } from '../errors/http-error.js';

/**
 * 413: the body is larger than `HTTP_MAX_BODY`.
 * @param maxBodyBytes the limit in bytes, named in the message.
 */
export function bodyTooLarge(maxBodyBytes: number, reason?: string): HttpError {
  return new HttpError(
    'BINDERY_BODY_TOO_LARGE',
    reason ?? `The request body is larger than the limit of ${maxBodyBytes} bytes (HTTP_MAX_BODY).`,
  );
}

/** 415: a body of a content type other than JSON or a form. */
export function unsupportedMediaType(contentType: string | undefined): HttpError {
  const seen =
    contentType === undefined || contentType === '' ? 'A body without Content-Type' : `Content-Type ${contentType.split(';')[0]!.trim()}`;
  return new HttpError(
    'BINDERY_UNSUPPORTED_MEDIA_TYPE',
    `${seen} is not supported; send application/json (or application/*+json), application/x-www-form-urlencoded or multipart/form-data.`,
  );
}

/** 400: the body cannot be read as its Content-Type says. */
export function malformedBody(message: string, cause?: unknown): HttpError {
  return new HttpError('BINDERY_MALFORMED_BODY', message, { cause });
}
