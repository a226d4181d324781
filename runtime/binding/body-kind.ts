/**
 * Which kind of body a request carried, for the source of body fields and
 * the names used in error messages (docs/spec.md 4.5 "Sources by tag").
 */
import type { FastifyRequest } from 'fastify';
import { MultipartBody } from './multipart.js';

/** `json`: a JSON body; `form`: URL-encoded or multipart; `none`: no body. */
export type BodyKind = 'none' | 'json' | 'form';

const URLENCODED = /^\s*application\/x-www-form-urlencoded\s*(?:;|$)/i;

/** True when the Content-Type header names an URL-encoded form. Never throws. */
export function isUrlEncoded(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.length >= 33 && URLENCODED.test(contentType);
}

/**
 * The kind of body of a request, from its parsed body and Content-Type.
 * Only JSON, URL-encoded and multipart bodies get past the parsers (others are
 * 415), so a parsed body that is not a form is JSON. Never throws.
 */
export function bodyKindOf(request: FastifyRequest): BodyKind {
  const body = request.body;
  if (body === undefined) return 'none';
  if (body instanceof MultipartBody || isUrlEncoded(request.headers['content-type'])) return 'form';
  return 'json';
}
