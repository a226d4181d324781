/**
 * The `Range` header of a download (RFC 9110 §14): which bytes of an object
 * to send — one range, a 416 for a range outside the object, or the whole
 * object for anything else (docs/storage.md "Downloads").
 */
import parseRange from 'range-parser';
import { HttpError } from '../errors/http-error.js';

/** Inclusive byte offsets of a part of an object: `start` to `end`, both counted from 0. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/**
 * The part of an object of `size` bytes that a request asks for.
 *
 * - No `Range`, a malformed one, a unit other than `bytes`, or several
 *   ranges (after merging overlapping and adjacent ones): `undefined`, the
 *   whole object (RFC 9110 lets a server ignore `Range`).
 * - With `If-Range`: `undefined` as well — these downloads carry no
 *   validator (`ETag`, `Last-Modified`) to compare it with, and a client
 *   must then get the whole current object.
 *
 * @param size the object's size in bytes.
 * @returns the one range to send, or `undefined` for the whole object.
 * @throws {HttpError} 416 with `Content-Range: bytes *\/<size>` when no byte of the range is in the object.
 */
export function requestedRange(size: number, range: string | undefined, ifRange: string | undefined): ByteRange | undefined {
  if (range === undefined || ifRange !== undefined) return undefined;
  const ranges = parseRange(size, range, { combine: true });
  if (ranges === -2) return undefined;
  if (ranges === -1)
    throw new HttpError(416, `The requested range is outside the file, which has ${size} bytes.`, {
      headers: { 'content-range': `bytes */${size}` },
    });
  if (ranges.type !== 'bytes' || ranges.length !== 1) return undefined;
  const { start, end } = ranges[0]!;
  return { start, end };
}
