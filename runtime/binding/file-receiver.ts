/**
 * Where the files of a multipart body go while it is read (docs/storage.md
 * "Uploads"): into a storage disk when the `storage()` step is set up
 * (streamed, never held whole), else into memory (small forms, apps
 * without storage). Either way each file is checked against its field's
 * limit as it arrives, hashed, and its type detected by content.
 */
import type { Readable } from 'node:stream';
import { SizeLimitError, uploadTooLarge } from '../storage/errors.js';
import { safeFileName } from '../storage/file-ref.js';
import { detect, Inspector } from '../storage/inspect.js';
import type { Storage } from '../storage/storage.js';
import type { UploadedFile } from '../routing/route-table.js';

/** The part's headers, as the client sent them. */
export interface IncomingFile {
  /** The field's client name, for messages (`avatar`). */
  readonly field: string;
  readonly filename: string;
  readonly mimetype: string;
  readonly encoding: string;
  /** The most bytes allowed. */
  readonly maxBytes: number;
}

/** Receives the files of multipart bodies. */
export interface FileReceiver {
  /**
   * Read `stream` to its end.
   * @throws {HttpError} 413 `BINDERY_UPLOAD_TOO_LARGE` naming the field past `maxBytes` (nothing kept), 503 when storage fails, or the stream's error.
   */
  receive(stream: Readable, file: IncomingFile): Promise<UploadedFile>;
  /** Remove what {@link receive} kept that no row took (the end of the request, or a failed body). Never throws. */
  discard(files: readonly UploadedFile[]): Promise<void>;
}

/** Files held in memory (apps without the `storage()` step). */
export const memoryReceiver: FileReceiver = {
  async receive(stream, file) {
    const inspector = new Inspector(file.maxBytes);
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      stream.once('error', reject);
      inspector.once('error', (error) => {
        stream.resume();
        reject(error instanceof SizeLimitError ? uploadTooLarge(file.field, file.maxBytes) : error);
      });
      inspector.on('data', (chunk: Buffer) => chunks.push(chunk));
      inspector.once('end', resolve);
      stream.pipe(inspector);
    });
    const data = Buffer.concat(chunks, inspector.size);
    const detected = await detect(inspector.head());
    return {
      filename: safeFileName(file.filename),
      mimetype: file.mimetype,
      encoding: file.encoding,
      size: inspector.size,
      checksum: inspector.checksum(),
      ...detected,
      data,
      stored: null,
    };
  },
  async discard() {},
};

/** Files streamed to `storage`'s default disk. */
export function storageReceiver(storage: Storage): FileReceiver {
  return {
    async receive(stream, file) {
      let object: Awaited<ReturnType<Storage['store']>>;
      try {
        object = await storage.store(stream, { maxBytes: file.maxBytes });
      } catch (error) {
        throw error instanceof SizeLimitError ? uploadTooLarge(file.field, file.maxBytes) : error;
      }
      return {
        filename: safeFileName(file.filename),
        mimetype: file.mimetype,
        encoding: file.encoding,
        size: object.size,
        checksum: object.checksum,
        type: object.type,
        dimensions: object.dimensions,
        data: null,
        stored: { disk: object.disk, key: object.key },
      };
    },
    discard(files) {
      return storage.discard(files.flatMap((f) => (f.stored === null ? [] : [f.stored])));
    },
  };
}
