/**
 * How a stored file is handed to a browser (docs/storage.md "Signed URLs"):
 * raster images inline, everything else as a download, with the name in
 * both the plain and the RFC 6266 / RFC 8187 form.
 */
import { safeFileName } from './file-ref.js';

/** Types shown in the page when opened (raster images: no script can run in them). */
const INLINE: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

/** Whether a file of `contentType` is shown inline (else downloaded). */
export function isInline(contentType: string): boolean {
  return INLINE.has(contentType);
}

/**
 * The `Content-Disposition` of a file: `inline` or `attachment`, with the
 * name: `filename="…"`, and for a name that is not plain printable ASCII
 * (or holds `"` or `\`) an ASCII fallback plus `filename*` in UTF-8.
 * The name is cleaned first ({@link safeFileName}: no bidirectional
 * controls, invisible characters or lone surrogates), so a name kept before
 * that rule shows as it would now, and the header never fails to encode.
 * @example contentDisposition('rapport été.pdf', 'application/pdf') // attachment; filename="rapport _t_.pdf"; filename*=UTF-8''rapport%20%C3%A9t%C3%A9.pdf
 */
export function contentDisposition(fileName: string, contentType: string): string {
  const name = safeFileName(fileName);
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const kind = isInline(contentType) ? 'inline' : 'attachment';
  if (ascii === name) return `${kind}; filename="${name}"`;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
