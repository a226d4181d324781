/**
 * `multipart/form-data` bodies (docs/spec.md 4.5: form fields and uploaded
 * files; docs/storage.md "Uploads").
 *
 * Parsed by `@fastify/busboy` — the parser inside `@fastify/multipart` —
 * from a plain Fastify content-type parser. `@fastify/multipart` itself is
 * not registered because it adds an async `onRequest` and `onResponse` hook
 * to every route of its scope; this parser costs nothing to requests that
 * are not multipart.
 *
 * Files of the route's file fields go to the {@link FileReceiver} as they
 * arrive — streamed to a storage disk with the `storage()` step, never held
 * whole — each against its field's limit (413 naming the field, nothing
 * kept); files under other names are read and dropped (only their names are
 * kept, so a file sent for a text field is a conversion failure). Text
 * fields and the whole body are limited too (sizes in bytes). When the body
 * fails, every file already received is discarded.
 */
import { Busboy } from '@fastify/busboy';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { UploadedFile } from '../routing/route-table.js';
import { bodyLimitSourceOf, bodyTooLarge, malformedBody, type BodyLimitSource } from './body-errors.js';
import type { FileReceiver } from './file-receiver.js';
import type { UploadPlan } from './upload-plan.js';

/** Form values by field name, in the shape of a parsed query string: one value, or a list when repeated. */
export type FormValues = Record<string, string | string[]>;

/** A parsed multipart body: text fields and files by field name. */
export class MultipartBody {
  /** Text fields (null-prototype object). */
  readonly fields: FormValues = Object.create(null) as FormValues;
  /** Files of the route's file fields, in order, by field name (null-prototype object). An empty file input (no filename, no bytes) is left out. */
  readonly files: Record<string, UploadedFile[]> = Object.create(null) as Record<string, UploadedFile[]>;
  /** Names of parts that carried a file for no file field (their bytes were dropped). */
  readonly strayFiles = new Set<string>();
  /** @internal Every file received, for {@link release}. */
  readonly received: UploadedFile[] = [];
  /** @internal */
  receiver: FileReceiver | undefined;

  /**
   * Discard the files no row took (the pipeline calls it when the request
   * is answered). Never throws.
   */
  release(): Promise<void> {
    const files = this.received.splice(0);
    return files.length === 0 || this.receiver === undefined ? Promise.resolve() : this.receiver.discard(files);
  }
}

type Done = (err: Error | null, body?: unknown) => void;

/**
 * A Fastify content-type parser (stream form) for `multipart/form-data`.
 * The route's {@link UploadPlan} (route config `uploads`) gives each file
 * field's limit and the body's; without one, every text field and the body
 * are limited to `maxBodyBytes` and files are dropped. Over a limit: 413
 * (naming the field for a file); a malformed body: 400.
 * @param receiver where files go.
 */
export function multipartParser(
  maxBodyBytes: number,
  receiver: FileReceiver,
): (request: FastifyRequest, payload: NodeJS.ReadableStream, done: Done) => void {
  return function parseMultipart(request, payload, done) {
    const plan = (request.routeOptions.config as { uploads?: UploadPlan } | undefined)?.uploads;
    const limit = plan?.maxBodyBytes ?? (request.routeOptions.bodyLimit as number | undefined) ?? maxBodyBytes;
    // The route's own or implied limit is named as such; a route with files is limited by HTTP_MAX_BODY and its files.
    const source: BodyLimitSource = plan === undefined ? bodyLimitSourceOf(request.routeOptions.config) : 'HTTP_MAX_BODY';
    const declared = Number(request.headers['content-length']);
    if (declared > limit) {
      done(bodyTooLarge(limit, undefined, source));
      return;
    }
    new MultipartReader(request, payload, limit, source, maxBodyBytes, plan, receiver, done).start();
  };
}

class MultipartReader {
  private readonly body = new MultipartBody();
  private received = 0;
  /** Bytes of text fields (names and values): together at most `fieldLimit`. */
  private textBytes = 0;
  private pendingFiles = 0;
  private finished = false;
  private settled = false;
  private readonly active = new Set<Readable>();
  private readonly bb: ReturnType<typeof Busboy> | undefined;

  constructor(
    request: FastifyRequest,
    private readonly payload: NodeJS.ReadableStream,
    private readonly limit: number,
    private readonly source: BodyLimitSource,
    private readonly fieldLimit: number,
    private readonly plan: UploadPlan | undefined,
    private readonly receiver: FileReceiver,
    private readonly done: Done,
  ) {
    this.body.receiver = receiver;
    try {
      this.bb = Busboy({
        headers: request.headers as { 'content-type': string },
        limits: { fieldSize: Math.min(limit, fieldLimit), parts: 1000, fieldNameSize: 200 },
      });
    } catch (err) {
      this.fail(malformed((err as Error).message, err));
    }
  }

  start(): void {
    const bb = this.bb;
    if (bb === undefined) return;
    this.payload.on('data', this.onData);
    this.payload.once('error', (err: Error) => this.fail(malformed(err.message, err)));
    bb.on('field', (name: string, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
      this.textBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
      if (valueTruncated || this.textBytes > this.fieldLimit) return this.fail(bodyTooLarge(this.fieldLimit));
      add(this.body.fields, name, value);
    });
    bb.on('file', (name: string, stream: Readable, filename: string, encoding: string, mimetype: string) =>
      this.onFile(name, stream, filename, encoding, mimetype),
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

  private onFile(name: string, stream: Readable, filename: string, encoding: string, mimetype: string): void {
    const field = this.plan?.files.get(name);
    if (field === undefined || this.settled) {
      this.body.strayFiles.add(name);
      stream.resume();
      return;
    }
    this.pendingFiles++;
    this.active.add(stream);
    stream.once('close', () => this.active.delete(stream));
    this.receiver.receive(stream, { field: field.form, filename, mimetype, encoding, maxBytes: field.maxBytes }).then(
      (file) => {
        this.pendingFiles--;
        if (this.settled) {
          void this.receiver.discard([file]);
          return;
        }
        this.body.received.push(file);
        if (filename === '' && file.size === 0) void this.receiver.discard([file]);
        else (this.body.files[name] ??= []).push(file);
        this.maybeDone();
      },
      (err: unknown) => {
        this.pendingFiles--;
        this.fail(err instanceof Error ? err : malformed(String(err), err));
      },
    );
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
    for (const stream of this.active) stream.destroy(err);
    void this.body.release();
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
