/**
 * Column defaults in PostgreSQL's SQL, and back: `now()`, `gen_random_uuid()`,
 * literals (`''`, `0`, `true`), `'…'::jsonb` for JSON values, `ARRAY[…]::text[]`
 * for lists (`'{}'` for an empty one). {@link readDefault} reads exactly what
 * {@link defaultSql} writes (the migrations bindery wrote, and version-1
 * snapshots, which kept this SQL).
 */
import type { ColumnTypeText } from '../../../../../runtime/db/column-type.js';
import { postgresType } from '../../../../../runtime/db/engines/postgres/column-types.js';
import type { JsonValue } from '../../../../model/model.js';
import type { DefaultSnapshot } from '../../snapshot-types.js';

/** A SQL string literal. */
export function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** The `DEFAULT` expression of a default, for a column of column type `type`. */
export function defaultSql(value: DefaultSnapshot, type: ColumnTypeText): string {
  switch (value.kind) {
    case 'now':
      return 'now()';
    case 'randomUuid':
      return 'gen_random_uuid()';
    case 'value':
      return sqlValue(value.value, postgresType(type));
  }
}

/** A value as a literal of the PostgreSQL type `type`. */
function sqlValue(value: JsonValue, type: string): string {
  if (value === null) return 'NULL';
  if (type === 'jsonb') return `${sqlString(JSON.stringify(value))}::jsonb`;
  if (Array.isArray(value)) {
    return value.length === 0 ? `'{}'` : `ARRAY[${value.map((v) => sqlValue(v, type.slice(0, -2))).join(', ')}]::${type}`;
  }
  switch (typeof value) {
    case 'string':
      return sqlString(value);
    case 'number':
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return `${sqlString(JSON.stringify(value))}::jsonb`;
  }
}

const STRING = /^'((?:[^']|'')*)'$/;
const JSON_VALUE = /^'((?:[^']|'')*)'::jsonb$/;
const LIST = /^ARRAY\[([\s\S]*)\]::[a-z ()0-9]+\[\]$/;
const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * The default a `DEFAULT` expression of {@link defaultSql} says, for a column
 * of column type `type` (`'{}'` is an empty list only for a list).
 * @returns `undefined` for an expression bindery does not write.
 */
export function readDefault(text: string, type: ColumnTypeText): DefaultSnapshot | undefined {
  if (text === 'now()') return { kind: 'now' };
  if (text === 'gen_random_uuid()') return { kind: 'randomUuid' };
  if (text === `'{}'` && type.endsWith('[]')) return { kind: 'value', value: [] };
  const list = LIST.exec(text);
  if (list) {
    const items = splitItems(list[1]!)?.map(readLiteral);
    return items === undefined || items.some((v) => v === undefined) ? undefined : { kind: 'value', value: items as JsonValue[] };
  }
  const value = readLiteral(text);
  return value === undefined ? undefined : { kind: 'value', value };
}

/** A literal of {@link sqlValue}: `NULL`, a number, `true`/`false`, a string, or JSON text `::jsonb`. */
function readLiteral(text: string): JsonValue | undefined {
  if (text === 'NULL') return null;
  if (text === 'true' || text === 'false') return text === 'true';
  if (NUMBER.test(text)) return Number(text);
  const json = JSON_VALUE.exec(text);
  if (json) {
    try {
      return JSON.parse(json[1]!.replace(/''/g, "'")) as JsonValue;
    } catch {
      return undefined;
    }
  }
  const string = STRING.exec(text);
  return string ? string[1]!.replace(/''/g, "'") : undefined;
}

/** The items of `a, 'b, c', 'd'::jsonb` (commas inside string literals do not split). */
function splitItems(text: string): string[] | undefined {
  const items: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of text) {
    if (ch === "'") quoted = !quoted;
    if (ch === ',' && !quoted) {
      items.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (quoted) return undefined;
  items.push(current.trim());
  return items;
}
