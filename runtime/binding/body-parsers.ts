/**
 * Body decoding on Fastify (SPEC.md 4.5 step 1).
 *
 * Accepted: `application/json` (Fastify's own parser), any `type/subtype+json`
 * (the same parser), `application/x-www-form-urlencoded` (`@fastify/formbody`,
 * repeated names collect into lists) and `multipart/form-data`
 * ({@link multipartParser}). Fastify's `text/plain` parser is removed, so any
 * other content type (or a body without one) is 415. Bodies over
 * `maxBodyBytes` are 413 (Fastify's `bodyLimit`, and the multipart reader).
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { multipartParser } from './multipart.js';

/** Content types whose subtype ends in `+json` (matched against Fastify's normalized `type/subtype; params`). */
export const JSON_SUFFIX_TYPE = /^[\w!#$%&'*.^`|~-]+\/[\w!#$%&'*.^`|~-]+\+json(?:;|$)/;

/**
 * Register the body parsers on `app` (before routes are added).
 * @param maxBodyBytes HTTP_MAX_BODY in bytes (also Fastify's `bodyLimit`).
 */
export async function registerBodyParsers(app: FastifyInstance, maxBodyBytes: number): Promise<void> {
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(JSON_SUFFIX_TYPE, { parseAs: 'string', bodyLimit: maxBodyBytes }, app.getDefaultJsonParser('error', 'error'));
  await app.register(formbody, { bodyLimit: maxBodyBytes });
  app.addContentTypeParser('multipart/form-data', multipartParser(maxBodyBytes));
}
