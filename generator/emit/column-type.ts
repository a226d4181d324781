/**
 * A field's column type: one of bindery's neutral column types
 * (`runtime/db/column-type.ts`, docs/database.md "Column types") that the
 * route table, the snapshot and the types' doc comments carry, and each
 * engine turns into its SQL.
 *
 * | field type | column type |
 * |---|---|
 * | string (max n) | `string(n)` — `string` without max |
 * | text | `text` |
 * | integer / bigint | `integer` / `bigint` |
 * | number | `float` |
 * | boolean | `boolean` |
 * | timestamp | `timestamp` |
 * | duration | `bigint` (milliseconds) |
 * | json, file | `json` |
 * | uuid | `uuid` |
 * | T[] | the item type followed by `[]` |
 */
import type { ColumnTypeText } from '../../runtime/db/column-type.js';
import type { ColumnType } from '../model/model.js';

/** The column type of a field's type, e.g. `string(200)`, `string[]`, `timestamp`. */
export function columnTypeOf(type: ColumnType): ColumnTypeText {
  const base = (() => {
    switch (type.kind) {
      case 'string':
        return type.max === undefined ? 'string' : `string(${type.max})`;
      case 'text':
        return 'text';
      case 'integer':
        return 'integer';
      case 'bigint':
      case 'duration':
        return 'bigint';
      case 'number':
        return 'float';
      case 'boolean':
        return 'boolean';
      case 'timestamp':
        return 'timestamp';
      case 'json':
      case 'file':
        return 'json';
      case 'uuid':
        return 'uuid';
    }
  })();
  return type.array ? `${base}[]` : base;
}
