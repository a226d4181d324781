/**
 * Reports semantic errors of one schema file at the YAML node they are about.
 */
import type { DiagnosticCode, Diagnostics, SourcePosition } from '../diagnostics.js';
import type { MessageParams, TemplatedCode } from '../../runtime/errors/codes.js';
import { formatPath, positionOf, type DataPath } from '../load/node-position.js';
import type { SchemaFile } from '../load/schema-file.js';

/** Error reporting bound to one schema file. */
export interface Reporter {
  /**
   * Position of the node at `path` (`key`: its map key; `value`: the value).
   * Line and column are looked up when first read: the model keeps one for
   * every resource, field and route, and most are never shown.
   */
  at(path: DataPath, at?: 'key' | 'value'): SourcePosition;
  /** Record an error at the node at `path`. */
  error(path: DataPath, message: string, at?: 'key' | 'value'): void;
  /**
   * Record an error at the node at `path` whose message is `code`'s template
   * (runtime/errors/codes.ts) filled with `params`, under that code.
   * @throws {RangeError} when a placeholder has no value.
   */
  errorFrom<C extends DiagnosticCode & TemplatedCode>(path: DataPath, code: C, params: MessageParams<C>, at?: 'key' | 'value'): void;
  /** Record a warning at the node at `path` (generation goes on). */
  warn(path: DataPath, message: string, at?: 'key' | 'value'): void;
}

/** A reporter writing to `diagnostics` for `file`. */
export function reporter(file: SchemaFile, diagnostics: Diagnostics): Reporter {
  return {
    at: (path, at = 'key') => lazyPosition(file, [...path], at),
    error: (path, message, at = 'key') => diagnostics.add(positionOf(file, path, at), formatPath(path), message),
    errorFrom: (path, code, params, at = 'key') => diagnostics.addFrom(positionOf(file, path, at), formatPath(path), code, params),
    warn: (path, message, at = 'key') => diagnostics.warn(positionOf(file, path, at), formatPath(path), message),
  };
}

function lazyPosition(file: SchemaFile, path: DataPath, at: 'key' | 'value'): SourcePosition {
  let found: SourcePosition | undefined;
  const position = (): SourcePosition => (found ??= positionOf(file, path, at));
  return {
    file: file.file,
    get line() {
      return position().line;
    },
    get column() {
      return position().column;
    },
  };
}

/** `schema/notes.yaml:12:3` */
export function formatPosition(p: SourcePosition): string {
  return `${p.file}:${p.line}:${p.column}`;
}
