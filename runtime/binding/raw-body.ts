/**
 * Raw `application/octet-stream` bodies, for the few routes that read the
 * bytes themselves (a local direct upload, docs/storage.md "Direct
 * uploads"): such a route is marked `rawBody`, and its handler gets the
 * unread request stream as `request.body` ({@link RawBody}). Every other
 * route answers an octet-stream body 415, as before.
 */
import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import { unsupportedMediaType } from './body-errors.js';

/** The unread body of a raw-body route. */
export class RawBody {
  constructor(readonly stream: Readable) {}
}

/** Register the `application/octet-stream` parser on `app` (see the module comment). */
export function registerRawBodyParser(app: FastifyInstance): void {
  app.addContentTypeParser('application/octet-stream', (request, payload, done) => {
    if ((request.routeOptions.config as { rawBody?: boolean } | undefined)?.rawBody) done(null, new RawBody(payload as Readable));
    else done(unsupportedMediaType(request.headers['content-type']));
  });
}
