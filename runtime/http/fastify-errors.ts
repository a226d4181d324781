/**
 * Fastify's own request errors, mapped into bindery's (docs/spec.md 7: 400, 413, 415),
 * so they render like every other error.
 */
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../errors/http-error.js';
import { bodyTooLarge, malformedBody, unsupportedMediaType, type BodyLimitSource } from '../binding/body-errors.js';

/**
 * The bindery error for a Fastify error code, or `error` unchanged.
 * @param maxBodyBytes the route's body limit (HTTP_MAX_BODY without a route), named in the 413 message.
 * @param source where that limit comes from (default HTTP_MAX_BODY).
 */
export function fromFastifyError(error: unknown, request: FastifyRequest, maxBodyBytes: number, source?: BodyLimitSource): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return withCause(bodyTooLarge(maxBodyBytes, undefined, source), error);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return withCause(unsupportedMediaType(request.headers['content-type']), error);
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return malformedBody('The request body is not valid JSON.', error);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return malformedBody('The request body is empty; send a JSON object.', error);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return malformedBody('The request body size does not match its Content-Length.', error);
    case 'FST_ERR_BAD_URL':
      return new HttpError('BINDERY_MALFORMED_URL', 'The request URL cannot be decoded.', { cause: error });
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new HttpError('BINDERY_MALFORMED_URL', 'A path segment of the request URL is too long.', { cause: error });
    default:
      return error;
  }
}

function withCause(mapped: HttpError, cause: unknown): HttpError {
  return new HttpError(mapped.status, mapped.message, { code: mapped.code ?? 'BINDERY_HTTP_ERROR', cause });
}
