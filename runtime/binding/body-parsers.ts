/**
 * Body decoding on Fastify (docs/spec.md 4.5 step 1).
 *
 * Accepted: `application/json` (Fastify's own parser), any `type/subtype+json`
 * (the same parser), `application/x-www-form-urlencoded` (`fast-querystring`,
 * the parser `@fastify/formbody` wraps; repeated names collect into lists) and
 * `multipart/form-data`
 * ({@link multipartParser}), and `application/octet-stream` for raw-body routes only. Fastify's `text/plain` parser is removed, so any
 * other content type (or a body without one) is 415. Bodies over the
 * route's limit are 413 (Fastify's `bodyLimit`, and the multipart reader).
 * JSON bodies and URL-encoded forms are scanned for their depth and key
 * count before they are parsed (`json-limits.ts`).
 */
import { parse as parseQueryString } from 'fast-querystring';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { memoryReceiver, type FileReceiver } from './file-receiver.js';
import { checkFormShape, checkJsonShape, type BodyShapeLimits } from './json-limits.js';
import { multipartParser } from './multipart.js';
import { registerRawBodyParser } from './raw-body.js';

/** Content types whose subtype ends in `+json` (matched against Fastify's normalized `type/subtype; params`). */
export const JSON_SUFFIX_TYPE = /^[\w!#$%&'*.^`|~-]+\/[\w!#$%&'*.^`|~-]+\+json(?:;|$)/;

type Done = (err: Error | null, body?: unknown) => void;

/**
 * Register the body parsers on `app` (before routes are added).
 * @param maxBodyBytes HTTP_MAX_BODY in bytes (also Fastify's `bodyLimit`); a route's own limit replaces it.
 * @param limits HTTP_MAX_JSON_DEPTH and HTTP_MAX_JSON_KEYS.
 * @param files where multipart files go (default: memory; the `storage()` step streams them to a disk).
 */
export function registerBodyParsers(
  app: FastifyInstance,
  maxBodyBytes: number,
  limits: BodyShapeLimits,
  files: FileReceiver = memoryReceiver,
): void {
  app.removeContentTypeParser('text/plain');
  // Fastify's JSON parser (secure-json-parse: `__proto__` and `constructor` poisoning refused), after the shape scan.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const json = (request: FastifyRequest, body: string | Buffer, done: Done): void => {
    // An empty body is no body (clients such as Postman send `Content-Type: application/json`
    // on body-less DELETEs): the route binds as without one, and its required fields are 422.
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    const refused = checkJsonShape(body as string, limits);
    if (refused !== undefined) done(refused);
    else parseJson(request, body as string, done);
  };
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: maxBodyBytes }, json);
  app.addContentTypeParser(JSON_SUFFIX_TYPE, { parseAs: 'string', bodyLimit: maxBodyBytes }, json);
  // A plain parser, not the @fastify/formbody plugin: any `await app.register()`
  // before the routes makes every request of this Fastify version measurably
  // slower (~7 µs, docs/benchmarks.md), and the plugin adds nothing else.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: maxBodyBytes }, (_request, body, done) => {
    const refused = checkFormShape(body as Buffer, limits);
    if (refused !== undefined) done(refused);
    else done(null, parseQueryString((body as Buffer).toString('utf8')));
  });
  app.addContentTypeParser('multipart/form-data', multipartParser(maxBodyBytes, files));
  registerRawBodyParser(app);
}
