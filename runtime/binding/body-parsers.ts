/**
 * Body decoding on Fastify (docs/spec.md 4.5 step 1).
 *
 * Accepted: `application/json` (Fastify's own parser), any `type/subtype+json`
 * (the same parser), `application/x-www-form-urlencoded` (`fast-querystring`,
 * the parser `@fastify/formbody` wraps; repeated names collect into lists) and
 * `multipart/form-data`
 * ({@link multipartParser}), and `application/octet-stream` for raw-body routes only. Fastify's `text/plain` parser is removed, so any
 * other content type (or a body without one) is 415. Bodies over
 * `maxBodyBytes` are 413 (Fastify's `bodyLimit`, and the multipart reader).
 */
import { parse as parseQueryString } from 'fast-querystring';
import type { FastifyInstance } from 'fastify';
import { memoryReceiver, type FileReceiver } from './file-receiver.js';
import { multipartParser } from './multipart.js';
import { registerRawBodyParser } from './raw-body.js';

/** Content types whose subtype ends in `+json` (matched against Fastify's normalized `type/subtype; params`). */
export const JSON_SUFFIX_TYPE = /^[\w!#$%&'*.^`|~-]+\/[\w!#$%&'*.^`|~-]+\+json(?:;|$)/;

/**
 * Register the body parsers on `app` (before routes are added).
 * @param maxBodyBytes HTTP_MAX_BODY in bytes (also Fastify's `bodyLimit`).
 * @param files where multipart files go (default: memory; the `storage()` step streams them to a disk).
 */
export function registerBodyParsers(app: FastifyInstance, maxBodyBytes: number, files: FileReceiver = memoryReceiver): void {
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(JSON_SUFFIX_TYPE, { parseAs: 'string', bodyLimit: maxBodyBytes }, app.getDefaultJsonParser('error', 'error'));
  // A plain parser, not the @fastify/formbody plugin: any `await app.register()`
  // before the routes makes every request of this Fastify version measurably
  // slower (~7 µs, docs/benchmarks.md), and the plugin adds nothing else.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: maxBodyBytes }, (_request, body, done) => {
    done(null, parseQueryString((body as Buffer).toString('utf8')));
  });
  app.addContentTypeParser('multipart/form-data', multipartParser(maxBodyBytes, files));
  registerRawBodyParser(app);
}
