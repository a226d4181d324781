/**
 * One schema file parsed with positions: the YAML document (kept for
 * line/column look-ups), its line counter, and its plain data.
 */
import { LineCounter, parseDocument, type Document } from 'yaml';
import type { Diagnostics } from '../diagnostics.js';
import { pathAtOffset, formatPath } from './node-position.js';

/** A parsed schema file. */
export interface SchemaFile {
  /** Path relative to the project root with forward slashes, e.g. `schema/notes.yaml`. */
  readonly file: string;
  readonly document: Document.Parsed;
  readonly lines: LineCounter;
  /** The file's data as plain JSON-like values (`{}` for an empty file); `undefined` when the YAML has errors. */
  readonly data: unknown;
}

/**
 * Parse the text of a schema file, keeping positions. YAML syntax errors and
 * duplicate keys are reported to `diagnostics` with their position; the
 * returned file then has no `data`. Never throws.
 * @param file path relative to the root (used in diagnostics).
 */
export function parseSchemaFile(file: string, text: string, diagnostics: Diagnostics): SchemaFile {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length === 0) {
    return { file, document, lines, data: document.toJS() ?? {} };
  }
  for (const error of document.errors) {
    const { line, col } = lines.linePos(error.pos[0]);
    const path = pathAtOffset(document, error.pos[0]);
    const message = error.code === 'DUPLICATE_KEY'
      ? `duplicate key "${String(path[path.length - 1] ?? '')}": a key may appear once per map; merge or rename the entries`
      : `invalid YAML: ${error.message}`;
    diagnostics.add({ file, line, column: col }, formatPath(path), message);
  }
  return { file, document, lines, data: undefined };
}
