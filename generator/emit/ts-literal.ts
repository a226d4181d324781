/**
 * Printing JSON-like values as TypeScript literals (single quotes, bare
 * identifier keys, trailing commas), with {@link Code} for references to
 * generated identifiers.
 */
import { propertyName, quote } from './ts-source.js';

/** A piece of code inserted as is into a literal (e.g. the name of a generated function). */
export class Code {
  constructor(readonly text: string) {}
}

/** A value {@link printLiteral} can print. */
export type Literal = Code | string | number | boolean | null | undefined | readonly Literal[] | { readonly [key: string]: Literal };

/** Objects and lists that fit in this many characters stay on one line. */
const INLINE_WIDTH = 100;

/**
 * The literal's source text. Object keys keep their insertion order;
 * `undefined` members are left out. Lines are indented by two spaces per
 * level, starting at `indent`.
 */
export function printLiteral(value: Literal, indent = ''): string {
  if (value instanceof Code) return value.text;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    const items = (value as readonly Literal[]).map((v) => printLiteral(v, inner));
    if (items.length === 0) return '[]';
    const flat = `[${items.join(', ')}]`;
    if (flat.length + indent.length <= INLINE_WIDTH && !flat.includes('\n')) return flat;
    return `[\n${items.map((i) => `${inner}${i},\n`).join('')}${indent}]`;
  }
  const entries = Object.entries(value as { readonly [key: string]: Literal })
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${propertyName(k)}: ${printLiteral(v, inner)}`);
  if (entries.length === 0) return '{}';
  const flat = `{ ${entries.join(', ')} }`;
  if (flat.length + indent.length <= INLINE_WIDTH && !flat.includes('\n')) return flat;
  return `{\n${entries.map((e) => `${inner}${e},\n`).join('')}${indent}}`;
}
