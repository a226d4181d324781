/**
 * TypeScript type expressions of columns (Kysely table interfaces), of
 * resources' JSON output and of route inputs.
 */
import type { FieldTypePlan } from '../../../runtime/routing/route-table.js';
import { enumUnion } from '../../model/enum-values.js';
import type { ColumnKind, ColumnType, InputField, ResourceField } from '../../model/model.js';
import { propertyName } from '../ts-source.js';

const SELECT: Readonly<Record<ColumnKind, string>> = {
  string: 'string',
  text: 'string',
  uuid: 'string',
  integer: 'number',
  bigint: 'number',
  number: 'number',
  duration: 'number',
  boolean: 'boolean',
  timestamp: 'Date',
  json: 'JsonValue',
  file: 'FileRef',
};

/** The TypeScript type of one value of a column: an enum's literal union, else by kind. */
function columnBase(type: ColumnType): string {
  return type.values ? enumUnion(type.values) : SELECT[type.kind];
}

function list(base: string, array: boolean): string {
  return array ? (base.includes(' ') ? `(${base})[]` : `${base}[]`) : base;
}

function orNull(type: string, nullable: boolean): string {
  return nullable ? `${type} | null` : type;
}

/**
 * The column's type in the Kysely table interface.
 *
 * - `bigint` and `duration` (milliseconds) are `number`: the runtime's pg
 *   pool parses int8 as a JavaScript number;
 * - timestamps select as `Date` and insert/update as `Date | string`;
 * - json columns select as `JsonValue` and insert/update as JSON text
 *   (`JSON.stringify(value)`), which pg passes to jsonb unchanged;
 * - columns with a default or identity are optional on insert (`Generated`).
 */
export function columnTsType(field: ResourceField): { type: string; usesColumnType: boolean; usesGenerated: boolean } {
  const { kind, array, nullable } = field.type;
  const select = orNull(list(columnBase(field.type), array), nullable);
  const writeBase = kind === 'timestamp' ? 'Date | string' : kind === 'json' ? 'string' : columnBase(field.type);
  const write = orNull(list(writeBase, array), nullable);
  const optional = field.identity || field.default !== undefined;
  if (write === select) {
    return optional
      ? { type: `Generated<${select}>`, usesColumnType: false, usesGenerated: true }
      : { type: select, usesColumnType: false, usesGenerated: false };
  }
  return {
    type: `ColumnType<${select}, ${optional ? `${write} | undefined` : write}, ${write}>`,
    usesColumnType: true,
    usesGenerated: false,
  };
}

/** The field's type in `<Name>Json`: timestamps as RFC 3339 strings; `null` dropped when `omitEmpty` (null is omitted). */
export function jsonTsType(field: ResourceField): string {
  const { kind, array, nullable } = field.type;
  const base = kind === 'timestamp' ? 'string' : kind === 'file' ? 'FileJson' : columnBase(field.type);
  return orNull(list(base, array), nullable && !field.omitEmpty);
}

const INPUT: Readonly<Record<FieldTypePlan['kind'], string>> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  duration: 'number',
  boolean: 'boolean',
  timestamp: 'Date',
  file: 'UploadedFile',
  json: 'JsonValue',
  object: 'object',
};

/**
 * A bound input field's type: durations in milliseconds, timestamps as
 * `Date`, files as `UploadedFile`, enums as their literal union, an object
 * as its fields (`{ email: string; bio?: string | null }`).
 */
export function inputTsType(field: Pick<InputField, 'type' | 'values' | 'fields'>): string {
  const type: FieldTypePlan = field.type;
  const base = field.fields
    ? `{ ${field.fields.map((f) => `${propertyName(f.key)}${f.required || f.default !== undefined ? '' : '?'}: ${inputTsType(f)}`).join('; ')} }`
    : field.values
      ? enumUnion(field.values)
      : INPUT[type.kind];
  return orNull(list(base, type.array), type.nullable);
}
