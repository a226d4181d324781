/**
 * One schema file parsed with positions: the YAML document (kept for
 * line/column look-ups), its line counter, and its plain data. Plain YAML
 * is read by the fast reader first; the document is then built only when a
 * diagnostic asks for a position.
 */
import type { Document, LineCounter } from 'yaml';
import type { Diagnostics } from '../diagnostics.js';
import { fastYamlData } from './fast-yaml.js';
import { keyAt, pathAtOffset, formatPath } from './node-position.js';
import { yamlLibrary } from './yaml-library.js';

/** A parsed schema file. */
export interface SchemaFile {
  /** Path relative to the project root with forward slashes, e.g. `schema/notes.yaml`. */
  readonly file: string;
  /** The YAML document, with positions (built on first use when the fast reader read the data). */
  readonly document: Document.Parsed;
  /** Line starts of the text, for offsets → line/column (with `document`). */
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
  const data = fastYamlData(text);
  if (data !== undefined) {
    let parsed: { document: Document.Parsed; lines: LineCounter } | undefined;
    const parse = () => {
      if (parsed === undefined) {
        const { LineCounter, parseDocument } = yamlLibrary();
        const lines = new LineCounter();
        parsed = { document: parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true }), lines };
      }
      return parsed;
    };
    return {
      file,
      get document() {
        return parse().document;
      },
      get lines() {
        return parse().lines;
      },
      data: data ?? {},
    };
  }
  const { LineCounter, parseDocument } = yamlLibrary();
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length === 0) {
    return { file, document, lines, data: document.toJS() ?? {} };
  }
  const unquoted = unquotedListTypes(text);
  if (unquoted.length > 0) {
    // `{ type: string[] }`: in a flow map `[` starts a list, and the YAML errors that follow say nothing useful.
    // Report each such value once, then whatever else is wrong with the text once they are quoted.
    const quoted = parseSchemaFile(file, quoteListTypes(text, unquoted), diagnostics);
    unquoted.forEach((u, k) => {
      const { line, col } = lines.linePos(u.offset);
      // Each earlier value on the way gained two quote characters in the quoted text.
      const path = formatPath(pathAtOffset(quoted.document, u.offset + 2 * k));
      diagnostics.add(
        { file, line, column: col },
        path,
        `quote the type: "${u.value}" (inside { … } a bare [ starts a list), e.g. { ${u.key}: "${u.value}" }`,
      );
    });
    return { file, document, lines, data: undefined };
  }
  for (const error of document.errors) {
    const { line, col } = lines.linePos(error.pos[0]);
    if (error.code === 'DUPLICATE_KEY') {
      const key = keyAt(document, error.pos[0]);
      const path = key?.path ?? pathAtOffset(document, error.pos[0]);
      const first = key === undefined ? '' : ` (first at line ${lines.linePos(key.first).line})`;
      diagnostics.add(
        { file, line, column: col },
        formatPath(path),
        `duplicate key "${String(path[path.length - 1] ?? '')}"${first}: a key may appear once per map; merge or rename the entries`,
      );
      continue;
    }
    const path = pathAtOffset(document, error.pos[0]);
    const message =
      error.code === 'MULTIPLE_DOCS'
        ? 'a schema file holds one YAML document, but a second one starts here ("---"); remove the line or move what follows into a file of its own'
        : `invalid YAML: ${error.message}`;
    diagnostics.add({ file, line, column: col }, error.code === 'MULTIPLE_DOCS' ? '' : formatPath(path), message);
  }
  return { file, document, lines, data: undefined };
}

/** A `key: name[]` value written bare inside a flow map. */
interface UnquotedListType {
  readonly key: string;
  readonly value: string;
  /** Offset of the value in the text. */
  readonly offset: number;
}

/** `{ …, key: word[] … }` on one line: a list type written bare in a flow map. */
const FLOW_LIST_TYPE = /([{,]\s*)([A-Za-z_][A-Za-z0-9_]*)(\s*:\s*)([A-Za-z][A-Za-z0-9_]*\[\])(?=\s*[,}])/g;

function unquotedListTypes(text: string): UnquotedListType[] {
  const found: UnquotedListType[] = [];
  let lineStart = 0;
  for (const line of text.split('\n')) {
    const code = line.replace(/(^|\s)#.*$/, '');
    if (code.includes('{')) {
      for (const m of code.matchAll(FLOW_LIST_TYPE)) {
        found.push({ key: m[2]!, value: m[4]!, offset: lineStart + m.index + m[1]!.length + m[2]!.length + m[3]!.length });
      }
    }
    lineStart += line.length + 1;
  }
  return found;
}

function quoteListTypes(text: string, found: readonly UnquotedListType[]): string {
  let out = text;
  for (const u of [...found].reverse()) out = `${out.slice(0, u.offset)}"${u.value}"${out.slice(u.offset + u.value.length)}`;
  return out;
}
