/**
 * File references: what a `type: file` column holds, and its JSON output
 * (docs/storage.md "Files of rows"; docs/schema-language.md "Field types").
 */

/**
 * A stored file, as a row keeps it (a JSON column): where the bytes are
 * and what they are. The bytes themselves are never in the row, nor in the
 * audit log (which records this metadata only).
 */
export interface FileRef {
  /** The disk holding the object (`local`, `s3`). */
  readonly disk: string;
  /** The object's key on the disk (made by bindery, never from the client's file name). */
  readonly key: string;
  /** The client's file name, reduced to its last path segment (`../../x.png` → `x.png`) without invisible or bidirectional control characters ({@link safeFileName}). */
  readonly name: string;
  /** Size in bytes. */
  readonly size: number;
  /** The content type detected from the bytes (`image/png`), or `application/octet-stream` when unknown. */
  readonly type: string;
  /** SHA-256 of the bytes, lower-case hex. */
  readonly checksum: string;
}

/** A {@link FileRef} with its signed URL, as the output pass leaves it in a row before serializing. */
export interface SignedFileRef extends FileRef {
  readonly url: string;
}

/** The JSON of a file field (`<Name>Json`): what clients see; the disk and key stay on the server. */
export interface FileJson {
  readonly name: string;
  /** Size in bytes. */
  readonly size: number;
  readonly content_type: string;
  /** SHA-256 of the bytes, lower-case hex. */
  readonly checksum: string;
  /** A signed URL downloading the file until it expires (`STORAGE_URL_TTL`); `null` when the row was serialized without the output pass. */
  readonly url: string | null;
}

/** Whether `value` has the shape of a {@link FileRef} (as read from a JSON column). */
export function isFileRef(value: unknown): value is FileRef {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.disk === 'string' && typeof v.key === 'string' && typeof v.name === 'string' && typeof v.size === 'number';
}

/**
 * The JSON of a file column (the generated serializers call it): name,
 * size, content type, checksum and the signed URL the output pass added.
 * @example fileJson(row.avatar) // { name: 'me.png', size: 2048, content_type: 'image/png', checksum: '…', url: 'https://…' }
 */
export function fileJson(ref: FileRef): FileJson;
export function fileJson(ref: FileRef | null): FileJson | null;
export function fileJson(ref: FileRef | null): FileJson | null {
  if (ref === null || ref === undefined) return null;
  const url = (ref as Partial<SignedFileRef>).url;
  return { name: ref.name, size: ref.size, content_type: ref.type, checksum: ref.checksum, url: typeof url === 'string' ? url : null };
}

/**
 * Characters a file name never keeps: C0 and C1 controls (`Cc`), format
 * characters (`Cf`: the bidirectional controls U+202A–U+202E, U+2066–U+2069,
 * U+200E, U+200F, U+061C, the zero-width U+200B–U+200D, U+2060, U+FEFF, the
 * soft hyphen…), the line and paragraph separators, and lone surrogates
 * (which no encoding can write). They are invisible, or reorder what is
 * shown: `invoice\u202Efdp.exe` reads as "invoiceexe.pdf".
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** The most characters (code points) a kept file name has. */
const MAX_NAME_CHARACTERS = 255;

/**
 * A client's file name made safe to keep and show (docs/storage.md "File
 * names"): its last path segment (after `/` or `\`), without the invisible
 * and reordering characters of {@link INVISIBLE}, trimmed, at most 255
 * characters (the end kept, so the extension stays; a character is never
 * cut in two); `file` when nothing is left (`..`, empty).
 * @example safeFileName('../../etc/passwd') // 'passwd'
 * @example safeFileName('invoice\u202Efdp.exe') // 'invoicefdp.exe'
 */
export function safeFileName(name: string): string {
  const last = name.split(/[/\\]/).pop() ?? '';
  const clean = last.replace(INVISIBLE, '').trim();
  if (clean === '' || clean === '.' || clean === '..') return 'file';
  if (clean.length <= MAX_NAME_CHARACTERS) return clean;
  const characters = Array.from(clean);
  return characters.length > MAX_NAME_CHARACTERS ? characters.slice(-MAX_NAME_CHARACTERS).join('').trimStart() : clean;
}
