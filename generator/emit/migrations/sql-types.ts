/**
 * PostgreSQL column types and default expressions of resource fields.
 *
 * | field type | column |
 * |---|---|
 * | string (max n) | varchar(n) — text without max |
 * | text | text |
 * | integer / bigint | integer / bigint |
 * | number | double precision |
 * | boolean | boolean |
 * | timestamp | timestamptz |
 * | duration | bigint (milliseconds) |
 * | json | jsonb |
 * | uuid | uuid |
 * | T[] | the element type followed by [] |
 */
import type { ColumnDefault, ColumnType, JsonValue } from '../../model/model.js';

/** The column type, e.g. `varchar(200)`, `text[]`, `timestamptz`. */
export function sqlType(type: ColumnType): string {
  const base = (() => {
    switch (type.kind) {
      case 'string':
        return type.max === undefined ? 'text' : `varchar(${type.max})`;
      case 'text':
        return 'text';
      case 'integer':
        return 'integer';
      case 'bigint':
      case 'duration':
        return 'bigint';
      case 'number':
        return 'double precision';
      case 'boolean':
        return 'boolean';
      case 'timestamp':
        return 'timestamptz';
      case 'json':
      case 'file':
        return 'jsonb';
      case 'uuid':
        return 'uuid';
    }
  })();
  return type.array ? `${base}[]` : base;
}

/** A SQL string literal. */
export function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** The `DEFAULT` expression of a column default, for a column of `type` (SQL type text). */
export function sqlDefault(value: ColumnDefault, type: string): string {
  switch (value.kind) {
    case 'now':
      return 'now()';
    case 'randomUuid':
      return 'gen_random_uuid()';
    case 'value':
      return sqlValue(value.value, type);
  }
}

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
