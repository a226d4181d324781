/**
 * From a data path (`['routes', 'notes.create', 'input', 'tags']`) to the
 * YAML node and its line/column, and back from an offset to a path.
 */
import type { Document, LineCounter, Node } from 'yaml';
import type { SourcePosition } from '../diagnostics.js';
import { yamlLibrary } from './yaml-library.js';

/** A path into a schema file's data: map keys and list indexes. */
export type DataPath = readonly (string | number)[];

/**
 * A path as printed in diagnostics: keys joined by dots, list indexes in
 * brackets — `resources.Note.indexes[0].columns`.
 */
export function formatPath(path: DataPath): string {
  let out = '';
  for (const segment of path) {
    out += typeof segment === 'number' ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  }
  return out;
}

/** What a position lookup needs of a parsed schema file (a `SchemaFile` has it). */
export interface PositionSource {
  /** The file path as shown in diagnostics. */
  readonly file: string;
  readonly document: Document.Parsed;
  readonly lines: LineCounter;
}

/**
 * Position of the node at `path` in `file`.
 * @param at `key`: the key of the map entry holding the node (where a reader
 *   looks for "the field"); `value`: the value node itself. Falls back to the
 *   deepest node found when the path goes further than the document.
 */
export function positionOf(file: PositionSource, path: DataPath, at: 'key' | 'value' = 'key'): SourcePosition {
  const offset = offsetOf(file.document, path, at);
  const { line, col } = file.lines.linePos(offset);
  return { file: file.file, line: Math.max(line, 1), column: col };
}

function offsetOf(document: Document.Parsed, path: DataPath, at: 'key' | 'value'): number {
  const { isMap, isScalar, isSeq } = yamlLibrary();
  let node: unknown = document.contents;
  let keyOffset: number | undefined;
  for (const segment of path) {
    node = resolve(document, node);
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) break;
      keyOffset = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
      node = pair.value;
      if (node === null) return keyOffset ?? 0;
    } else if (isSeq(node) && typeof segment === 'number' && node.items[segment] !== undefined) {
      keyOffset = undefined;
      node = node.items[segment];
    } else {
      break;
    }
  }
  const valueOffset = (node as Node | null)?.range?.[0];
  if (at === 'key' && keyOffset !== undefined) return keyOffset;
  return valueOffset ?? keyOffset ?? 0;
}

function resolve(document: Document.Parsed, node: unknown): unknown {
  return yamlLibrary().isAlias(node) ? node.resolve(document) : node;
}

/** The path of the deepest map entry or list item whose source covers `offset` (for YAML errors). */
export function pathAtOffset(document: Document.Parsed, offset: number): DataPath {
  const { isMap, isPair, isScalar, isSeq } = yamlLibrary();
  const path: (string | number)[] = [];
  let node: unknown = document.contents;
  for (;;) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && covers(p.key, offset, p.value));
      if (!pair || !isScalar(pair.key)) return path;
      path.push(String(pair.key.value));
      node = pair.value;
    } else if (isSeq(node)) {
      const index = node.items.findIndex((item) => covers(item, offset));
      if (index === -1) return path;
      path.push(index);
      node = node.items[index];
    } else {
      return path;
    }
  }
}

function covers(start: unknown, offset: number, end: unknown = start): boolean {
  const from = (start as Node | null)?.range?.[0];
  const to = (end as Node | null)?.range?.[2] ?? (start as Node | null)?.range?.[2];
  return from !== undefined && to !== undefined && from <= offset && offset <= to;
}

/**
 * The map key that starts at `offset` (a duplicate key, which YAML reports
 * at the repeated key): its path — the path of its map plus the key, e.g.
 * `['routes']` for a second top-level `routes:` — and the offset of the
 * first key of that map with the same name. Undefined when no key starts there.
 */
export function keyAt(document: Document.Parsed, offset: number): { readonly path: DataPath; readonly first: number } | undefined {
  const { isMap, isScalar, isSeq } = yamlLibrary();
  const walk = (node: unknown, path: readonly (string | number)[]): { path: DataPath; first: number } | undefined => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isScalar(pair.key)) continue;
        const key = String(pair.key.value);
        if (pair.key.range?.[0] === offset) {
          const first = node.items.find((p) => isScalar(p.key) && String(p.key.value) === key)!;
          return { path: [...path, key], first: (first.key as Node).range?.[0] ?? offset };
        }
        const found = walk(pair.value, [...path, key]);
        if (found !== undefined) return found;
      }
    } else if (isSeq(node)) {
      for (const [index, item] of node.items.entries()) {
        const found = walk(item, [...path, index]);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return walk(document.contents, []);
}
