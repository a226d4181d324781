/**
 * The errors of body decoding (docs/spec.md 4.5 step 1, docs/spec.md 7: 400, 413, 415).
 */
import { HttpError } from '../errors/http-error.js';

/** Where a route's body limit comes from (docs/http.md "Body limits"), named in the 413 message. */
export type BodyLimitSource = 'route' | 'implied' | 'HTTP_MAX_BODY';

/**
 * 413: the body is larger than the route's limit.
 * @param limitBytes the limit in bytes, named in the message.
 * @param source where the limit comes from: the route's `bodyLimit`, its input, or `HTTP_MAX_BODY` (default).
 */
export function bodyTooLarge(limitBytes: number, reason?: string, source: BodyLimitSource = 'HTTP_MAX_BODY'): HttpError {
  const why =
    source === 'HTTP_MAX_BODY'
      ? `the limit of ${limitBytes} bytes (HTTP_MAX_BODY)`
      : source === 'route'
        ? `this route's limit of ${limitBytes} bytes (bodyLimit)`
        : `this route's limit of ${limitBytes} bytes (implied by its input fields; bodyLimit changes it)`;
  return new HttpError('BINDERY_BODY_TOO_LARGE', reason ?? `The request body is larger than ${why}.`);
}

/** The body limit source a route's Fastify config carries (`config.bodyLimitSource`, set by the server). */
export function bodyLimitSourceOf(config: unknown): BodyLimitSource {
  const source = (config as { bodyLimitSource?: BodyLimitSource } | undefined)?.bodyLimitSource;
  return source ?? 'HTTP_MAX_BODY';
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
