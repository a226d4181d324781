/**
 * Looking at a file's bytes as they stream by (docs/storage.md "File
 * rules"): its size against a limit, its SHA-256, and its first bytes, from
 * which its type is detected by content (magic numbers, `file-type`) and an
 * image's dimensions read (`image-size`) — never from its name or the
 * client's `Content-Type`.
 */
import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import { SizeLimitError } from './errors.js';

/** Bytes of the head kept for type detection and image dimensions (64 KiB). */
export const HEAD_BYTES = 64 * 1024;

/** A type detected from the bytes. */
export interface DetectedType {
  /** `image/png`. */
  readonly mime: string;
  /** The usual extension, `png`, `jpg`, `pdf`, `txt`. */
  readonly ext: string;
}

/** An image's size in pixels. */
export interface Dimensions {
  readonly width: number;
  readonly height: number;
}

/** What the bytes are: type and (for images) dimensions. */
export interface Detected {
  readonly type: DetectedType | null;
  readonly dimensions: Dimensions | null;
}

/**
 * A pass-through stream counting, hashing and keeping the head of what
 * flows through it. Past `limit` bytes it fails with {@link SizeLimitError}
 * (before passing the byte on), so the consumer never stores more. The
 * error reaches the consumer through `pipeline`/`finished`, whenever it
 * attaches.
 */
export class Inspector extends Transform {
  /** Bytes seen. */
  size = 0;
  private readonly hash: Hash = createHash('sha256');
  private readonly headChunks: Buffer[] = [];
  private headSize = 0;

  /** @param limit the most bytes allowed (`Infinity` for none). */
  constructor(private readonly limit: number) {
    super();
    // The source flows as soon as it is piped in, so the limit can be passed
    // before the consumer (a disk's `pipeline`) attaches its listeners. The
    // error is kept on the stream (`errored`) and `pipeline`/`finished`
    // report it to the consumer; the emitted event itself must not be an
    // uncaught exception.
    this.on('error', () => {});
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.limit) {
      callback(new SizeLimitError(this.limit));
      return;
    }
    this.hash.update(chunk);
    if (this.headSize < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - this.headSize);
      this.headChunks.push(Buffer.from(part));
      this.headSize += part.length;
    }
    callback(null, chunk);
  }

  /** The first bytes (at most {@link HEAD_BYTES}). */
  head(): Buffer {
    return Buffer.concat(this.headChunks, this.headSize);
  }

  /** SHA-256 of everything seen, hex (call once, after the end). */
  checksum(): string {
    return this.hash.digest('hex');
  }
}

/**
 * Detect the type and image dimensions from a file's first bytes.
 * Binary formats are known by their magic numbers (`file-type`); a head
 * that is valid UTF-8 text without control characters (tabs and line
 * breaks aside) is `text/plain` (`txt`); anything else is unknown (`null`).
 * Never throws.
 */
export async function detect(head: Buffer): Promise<Detected> {
  if (head.length === 0) return { type: null, dimensions: null };
  let type: DetectedType | null = null;
  try {
    const found = await fileTypeFromBuffer(head);
    if (found) type = { mime: found.mime, ext: found.ext };
  } catch {
    type = null;
  }
  if (type === null && looksLikeText(head)) type = { mime: 'text/plain', ext: 'txt' };
  let dimensions: Dimensions | null = null;
  if (type?.mime.startsWith('image/')) {
    try {
      const size = imageSize(head);
      if (size.width !== undefined && size.height !== undefined) dimensions = { width: size.width, height: size.height };
    } catch {
      dimensions = null;
    }
  }
  return { type, dimensions };
}

function looksLikeText(head: Buffer): boolean {
  // A multi-byte character may be cut at the end of the head: drop up to 3 trailing bytes before decoding strictly.
  for (let cut = 0; cut < 4 && cut < head.length; cut++) {
    try {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, head.length - cut));
      return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
    } catch {
      /* try a shorter prefix */
    }
  }
  return false;
}

/** Extensions that name the same type (`mimes:jpg` accepts a JPEG file-type calls `jpg`, `mimes:jpeg` too). */
const ALIASES: Readonly<Record<string, string>> = { jpeg: 'jpg', jpe: 'jpg', tif: 'tiff', htm: 'html', text: 'txt', mpeg: 'mpg' };

const canonical = (ext: string): string => ALIASES[ext.toLowerCase()] ?? ext.toLowerCase();

/**
 * Whether a detected type is one of `allowed`: extensions (`png`, `jpg`,
 * `pdf`; `jpeg` and `jpg` are one) or MIME types (`image/png`, `image/*`).
 * An unknown type (`null`) matches nothing.
 */
export function typeAllowed(type: DetectedType | null, allowed: readonly string[]): boolean {
  if (type === null) return false;
  const ext = canonical(type.ext);
  for (const entry of allowed) {
    const a = entry.toLowerCase();
    if (a.includes('/')) {
      if (a === type.mime || (a.endsWith('/*') && type.mime.startsWith(a.slice(0, -1)))) return true;
    } else if (canonical(a) === ext) return true;
  }
  return false;
}
