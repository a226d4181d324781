/**
 * `multipart/form-data` bodies (docs/spec.md 4.5: form fields and uploaded files).
 *
 * Parsed by `@fastify/busboy` — the parser inside `@fastify/multipart` —
 * from a plain Fastify content-type parser. `@fastify/multipart` itself is
 * not registered because it adds an async `onRequest` and `onResponse` hook
 * to every route of its scope (a promise, a closure and a `close` listener
 * per request, multipart or not); this parser costs nothing to requests that
 * are not multipart. Files are held in memory (sizes in bytes).
 */
import { Busboy } from '@fastify/busboy';
import type { FastifyRequest } from 'fastify';
import type { UploadedFile } from '../routing/route-table.js';
import { bodyLimitSourceOf, bodyTooLarge, malformedBody, type BodyLimitSource } from './body-errors.js';

/** Form values by field name, in the shape of a parsed query string: one value, or a list when repeated. */
export type FormValues = Record<string, string | string[]>;

/** A parsed multipart body: text fields and files by field name. */
export class MultipartBody {
  /** Text fields (null-prototype object). */
  readonly fields: FormValues = Object.create(null) as FormValues;
  /** Files with a filename, in order, by field name (null-prototype object). An empty file input (no filename, no bytes) is left out. */
  readonly files: Record<string, UploadedFile[]> = Object.create(null) as Record<string, UploadedFile[]>;
}

type Done = (err: Error | null, body?: unknown) => void;

/**
 * A Fastify content-type parser (stream form) for `multipart/form-data`
 * whose whole body, every field and every file is limited to the route's
 * body limit (`maxBodyBytes` for a route without one; 413 beyond). A
 * malformed body gives 400.
 */
export function multipartParser(maxBodyBytes: number): (request: FastifyRequest, payload: NodeJS.ReadableStream, done: Done) => void {
  return function parseMultipart(request, payload, done) {
    const limit = request.routeOptions.bodyLimit ?? maxBodyBytes;
    const source = bodyLimitSourceOf(request.routeOptions.config);
    const declared = Number(request.headers['content-length']);
    if (declared > limit) {
      done(bodyTooLarge(limit, undefined, source));
      return;
    }
    new MultipartReader(request, payload, limit, source, done).start();
  };
}

class MultipartReader {
  private readonly body = new MultipartBody();
  private received = 0;
  private pendingFiles = 0;
  private finished = false;
  private settled = false;
  private readonly bb: ReturnType<typeof Busboy> | undefined;

  constructor(
    request: FastifyRequest,
    private readonly payload: NodeJS.ReadableStream,
    private readonly limit: number,
    private readonly source: BodyLimitSource,
    private readonly done: Done,
  ) {
    try {
      this.bb = Busboy({
        headers: request.headers as { 'content-type': string },
        limits: { fieldSize: limit, fileSize: limit, parts: 1000, fieldNameSize: 200 },
      });
    } catch (err) {
      this.fail(malformed((err as Error).message, err));
    }
  }

  start(): void {
    const bb = this.bb;
    if (bb === undefined) return;
    this.payload.on('data', this.onData);
    bb.on('field', (name: string, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
      if (valueTruncated) return this.fail(bodyTooLarge(this.limit, undefined, this.source));
      add(this.body.fields, name, value);
    });
    bb.on(
      'file',
      (name: string, stream: NodeJS.ReadableStream & { truncated?: boolean }, filename: string, encoding: string, mimetype: string) => {
        this.pendingFiles++;
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
        });
        stream.on('limit', () => this.fail(bodyTooLarge(this.limit, undefined, this.source)));
        stream.on('error', (err: Error) => this.fail(malformed(err.message, err)));
        stream.on('end', () => {
          this.pendingFiles--;
          if (!stream.truncated && (filename !== '' || size > 0)) {
            const file: UploadedFile = {
              filename,
              mimetype,
              encoding,
              size,
              data: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size),
            };
            (this.body.files[name] ??= []).push(file);
          }
          this.maybeDone();
        });
      },
    );
    bb.on('partsLimit', () => this.fail(bodyTooLarge(this.limit, 'The form has more than 1000 parts.', this.source)));
    bb.on('error', (err: Error) => {
      if (this.received === 0 && /Unexpected end/i.test(err.message)) {
        this.finished = true;
        this.maybeDone();
        return;
      }
      this.fail(malformed(err.message, err));
    });
    bb.on('finish', () => {
      this.finished = true;
      this.maybeDone();
    });
    this.payload.pipe(bb);
  }

  private readonly onData = (chunk: Buffer | string): void => {
    this.received += chunk.length;
    if (this.received > this.limit) this.fail(bodyTooLarge(this.limit, undefined, this.source));
  };

  private maybeDone(): void {
    if (this.settled || !this.finished || this.pendingFiles > 0) return;
    this.settled = true;
    this.payload.removeListener('data', this.onData);
    this.done(null, this.body);
  }

  private fail(err: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.payload.removeListener('data', this.onData);
    if (this.bb !== undefined) {
      this.payload.unpipe(this.bb);
      this.bb.removeAllListeners('finish');
      // Keep draining so the response can be written; the connection closes after it.
      this.payload.resume();
    }
    this.done(err);
  }
}

function add(values: FormValues, name: string, value: string): void {
  const prev = values[name];
  if (prev === undefined) values[name] = value;
  else if (typeof prev === 'string') values[name] = [prev, value];
  else prev.push(value);
}

function malformed(reason: string, cause: unknown): Error {
  return malformedBody(`The multipart body is malformed: ${reason}.`, cause);
}
