/**
 * Column defaults in MySQL's and MariaDB's SQL, and back:
 * `CURRENT_TIMESTAMP(6)`, `(UUID())`, literals (`'draft'`, `0`, `TRUE`) for
 * `VARCHAR`, numbers and booleans, and expression defaults — in parentheses,
 * the only defaults a `LONGTEXT` or `JSON` column takes on MySQL — for text
 * (`('')`), JSON documents (`(JSON_EXTRACT('{"a":1}', '$'))`) and lists
 * (`(JSON_ARRAY('a', 'b'))`). {@link readDefault} reads exactly what
 * {@link defaultSql} writes.
 */
import { parseColumnType, type ColumnTypeText } from '../../../../../runtime/db/column-type.js';
import type { JsonValue } from '../../../../model/model.js';
import type { DefaultSnapshot } from '../../snapshot-types.js';

/** A SQL string literal: quotes doubled, backslashes doubled (the sessions do not run with `NO_BACKSLASH_ESCAPES`). */
export function sqlString(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** Whether a column of `type` takes only an expression default (`(…)`) on MySQL: text without a limit, JSON, lists. */
function expressionOnly(type: ColumnTypeText): boolean {
  const parsed = parseColumnType(type);
  return (
    parsed === undefined ||
    parsed.array ||
    parsed.base === 'json' ||
    parsed.base === 'text' ||
    (parsed.base === 'string' && parsed.max === undefined)
  );
}

/**
 * The `DEFAULT` expression of a default, for a column of column type `type`.
 * @param enumColumn the column is an enum (a `VARCHAR`, which takes a literal default).
 */
export function defaultSql(value: DefaultSnapshot, type: ColumnTypeText, enumColumn = false): string {
  switch (value.kind) {
    case 'now':
      return 'CURRENT_TIMESTAMP(6)';
    case 'randomUuid':
      return '(UUID())';
    case 'value': {
      const parsed = parseColumnType(type);
      if (value.value === null) return 'NULL';
      if (parsed?.array || parsed?.base === 'json') return `(${jsonValue(value.value)})`;
      const literal = sqlLiteral(value.value);
      return expressionOnly(type) && !enumColumn ? `(${literal})` : literal;
    }
  }
}

/** A JSON value as an expression giving it: `JSON_ARRAY(…)` for a list of scalars, else its text read by `JSON_EXTRACT(…, '$')`. */
function jsonValue(value: JsonValue): string {
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) {
    return `JSON_ARRAY(${value.map((v) => sqlLiteral(v)).join(', ')})`;
  }
  return `JSON_EXTRACT(${sqlString(JSON.stringify(value))}, '$')`;
}

function sqlLiteral(value: JsonValue): string {
  if (value === null) return 'NULL';
  switch (typeof value) {
    case 'string':
      return sqlString(value);
    case 'number':
      return String(value);
    case 'boolean':
      return value ? 'TRUE' : 'FALSE';
    default:
      return sqlString(JSON.stringify(value));
  }
}

const STRING = /^'((?:[^'\\]|''|\\.)*)'$/;
const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * The default a `DEFAULT` expression of {@link defaultSql} says.
 * @returns `undefined` for an expression bindery does not write.
 */
export function readDefault(text: string): DefaultSnapshot | undefined {
  if (text === 'CURRENT_TIMESTAMP(6)') return { kind: 'now' };
  if (text === '(UUID())') return { kind: 'randomUuid' };
  const inner = /^\(([\s\S]*)\)$/.exec(text)?.[1] ?? text;
  const array = /^JSON_ARRAY\(([\s\S]*)\)$/.exec(inner);
  if (array) {
    const items = splitItems(array[1]!);
    if (items === undefined) return undefined;
    const values = items.map(readLiteral);
    return values.some((v) => v === undefined) ? undefined : { kind: 'value', value: values as JsonValue[] };
  }
  const json = /^JSON_EXTRACT\(('(?:[^'\\]|''|\\.)*'), '\$'\)$/.exec(inner);
  if (json) {
    try {
      return { kind: 'value', value: JSON.parse(unquote(json[1]!)) as JsonValue };
    } catch {
      return undefined;
    }
  }
  const value = readLiteral(inner);
  return value === undefined ? undefined : { kind: 'value', value };
}

function readLiteral(text: string): JsonValue | undefined {
  if (text === 'NULL') return null;
  if (text === 'TRUE' || text === 'FALSE') return text === 'TRUE';
  if (NUMBER.test(text)) return Number(text);
  return STRING.test(text) ? unquote(text) : undefined;
}

/** The text of a string literal of {@link sqlString}. */
export function unquote(literal: string): string {
  return literal.slice(1, -1).replace(/''/g, "'").replace(/\\(.)/g, '$1');
}

/** The items of `a, 'b, c', 'd'` (commas inside string literals do not split); none for an empty text. */
export function splitItems(text: string): string[] | undefined {
  if (text.trim() === '') return [];
  const items: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted && ch === '\\') {
      current += ch + (text[i + 1] ?? '');
      i++;
      continue;
    }
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
