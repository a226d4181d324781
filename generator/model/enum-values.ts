/**
 * Enumerations of the language (docs/schema-language.md "Enums"): a field of
 * `type: enum` (or `"enum[]"`) with `values: [draft, published]`. The model
 * keeps such a field as a `string` (list) carrying its values; every emitter
 * reads the values from there (TypeScript literal unions, the column's CHECK
 * constraint, the implied `enum` rule of inputs, OpenAPI `enum`).
 */
import type { DataPath } from '../load/node-position.js';
import { didYouMean } from '../suggest.js';
import type { Reporter } from './reporter.js';

/**
 * Check the `values` of a field whose type kind is `kind` (after `[]` is
 * removed). Errors go to `r` at `path` (the field's path).
 * @returns `{ ok: true, values }` — `values` undefined for a type other than
 *   enum — or `{ ok: false }` after reporting.
 */
export function resolveEnumValues(
  r: Reporter,
  path: DataPath,
  kind: string,
  values: readonly string[] | undefined,
): { ok: true; values?: readonly string[] } | { ok: false } {
  if (kind !== 'enum') {
    if (values === undefined) return { ok: true };
    r.error([...path, 'values'], `"values" lists the values of an enum; use "type: enum" (or "enum[]"), or remove "values"`);
    return { ok: false };
  }
  if (values === undefined || values.length === 0) {
    r.error([...path, 'type'], 'an enum needs its values: add "values: [a, b, …]" (at least one)');
    return { ok: false };
  }
  let ok = true;
  values.forEach((v, i) => {
    if (values.indexOf(v) !== i) {
      ok = false;
      r.error([...path, 'values', i], `value "${v}" is listed twice; keep one`, 'value');
    }
    if (v.includes(',')) {
      ok = false;
      r.error([...path, 'values', i], `value "${v}" contains a comma; enum values are words without commas`, 'value');
    }
  });
  return ok ? { ok: true, values } : { ok: false };
}

/**
 * The message for a default that is not one of the enum's `values` (a list
 * default: the first item that is not), or undefined when it is one.
 */
export function enumDefaultProblem(values: readonly string[], value: unknown): string | undefined {
  const items = Array.isArray(value) ? value : [value];
  for (const item of items) {
    if (item === null || values.includes(item as string)) continue;
    return `default ${JSON.stringify(item)} is not one of the enum's values (${values.join(', ')})${didYouMean(String(item), values)}`;
  }
  return undefined;
}

/** The TypeScript literal union of enum `values`, e.g. `'draft' | 'published'`. */
export function enumUnion(values: readonly string[]): string {
  return values.map((v) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`).join(' | ');
}
