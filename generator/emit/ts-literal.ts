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
  const flat = flatLiteral(value, INLINE_WIDTH - indent.length);
  if (flat !== null) return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    const items = (value as readonly Literal[]).map((v) => printLiteral(v, inner));
    return `[\n${items.map((i) => `${inner}${i},\n`).join('')}${indent}]`;
  }
  const entries = Object.entries(value as { readonly [key: string]: Literal })
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${propertyName(k)}: ${printLiteral(v, inner)}`);
  return `{\n${entries.map((e) => `${inner}${e},\n`).join('')}${indent}}`;
}

/**
 * The one-line form of a literal (`[a, b]`, `{ a: 1 }`, `[]`, `{}`), or null
 * when it is longer than `budget` characters or holds a line break. Gives up
 * as soon as the budget is spent, so large values cost nothing here.
 */
function flatLiteral(value: Literal, budget: number): string | null {
  if (budget < 0) return null;
  if (value instanceof Code) return value.text.length <= budget && !value.text.includes('\n') ? value.text : null;
  if (value === null || value === undefined) return 'null'.length <= budget ? 'null' : null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    const text = typeof value === 'string' ? quote(value) : String(value);
    return text.length <= budget ? text : null;
  }
  const parts: string[] = [];
  let used = 0;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'.length <= budget ? '[]' : null;
    used = 2;
    for (const item of value as readonly Literal[]) {
      const text = flatLiteral(item, budget - used);
      if (text === null) return null;
      used += text.length + (parts.length > 0 ? 2 : 0);
      if (used > budget) return null;
      parts.push(text);
    }
    return `[${parts.join(', ')}]`;
  }
  const entries = Object.entries(value as { readonly [key: string]: Literal }).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}'.length <= budget ? '{}' : null;
  used = 4;
  for (const [k, v] of entries) {
    const key = `${propertyName(k)}: `;
    const text = flatLiteral(v, budget - used - key.length);
    if (text === null) return null;
    used += key.length + text.length + (parts.length > 0 ? 2 : 0);
    if (used > budget) return null;
    parts.push(key + text);
  }
  return `{ ${parts.join(', ')} }`;
}
