/**
 * A resource field's JSON in generated serializers: the value expression
 * and, for `omitEmpty` fields, the condition under which it is written.
 * Used by the resource serializers and the shapes' projections.
 */
import type { ResourceField } from '../../model/model.js';

/**
 * The JSON value of the field read from `base` (`row.title`); `known` when
 * the caller already ruled out null. Shared with the shape serializers.
 */
export function value(f: ResourceField, known: boolean, base = 'row'): string {
  const read = `${base}.${f.name}`;
  if (f.type.kind === 'file') return `fileJson(${read})`;
  if (f.type.kind !== 'timestamp') return read;
  const text = f.type.array ? `${read}.map((d) => d.toISOString())` : `${read}.toISOString()`;
  return f.type.nullable && !known ? `${read} === null ? null : ${text}` : text;
}

/** The condition under which an `omitEmpty` field read from `base` is written. */
export function present(f: ResourceField, base = 'row'): string {
  const read = `${base}.${f.name}`;
  const notNull = f.type.nullable ? [`${read} !== null`] : [];
  if (f.type.array) return [...notNull, `${read}.length !== 0`].join(' && ');
  if (f.type.kind === 'string' || f.type.kind === 'text') return [...notNull, `${read} !== ''`].join(' && ');
  return notNull.join(' && ');
}
