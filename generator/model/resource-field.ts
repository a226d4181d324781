/**
 * Resolving one field of a resource (`resources.<Name>.fields.<column>`).
 */
import type { RawResourceField, RawUnique } from '../language/raw.js';
import type { DataPath } from '../load/node-position.js';
import { show } from '../load/ajv-messages.js';
import { columnDefault } from './defaults.js';
import { enumDefaultProblem, resolveEnumValues } from './enum-values.js';
import type { ColumnKind, ColumnType, FieldReference, ResourceField } from './model.js';
import type { Reporter } from './reporter.js';

/** A resolved field and its field-level `unique` option. */
export interface ResolvedField {
  readonly field: ResourceField;
  readonly unique: 'none' | 'all' | 'live';
  /** The emulation a `live` unique index opts in to (`unique: { among: live, emulate: … }`). */
  readonly emulate?: 'generated-column';
}

/** Parse a type name of the language (`string`, `integer[]`, …) into kind and list flag. */
export function parseTypeName<K extends string>(name: string): { kind: K; array: boolean } {
  return name.endsWith('[]') ? { kind: name.slice(0, -2) as K, array: true } : { kind: name as K, array: false };
}

/**
 * Resolve field `name` of a resource; errors go to `r` at `path` (the field's
 * path). Returns undefined when the field has an error.
 * @param softDelete whether the resource has `softDelete: true` (for `unique: live`).
 */
export function resolveResourceField(
  r: Reporter,
  path: DataPath,
  name: string,
  raw: RawResourceField,
  softDelete: boolean,
): ResolvedField | undefined {
  let ok = true;
  const fail = (key: string, message: string): void => {
    ok = false;
    r.error([...path, key], message);
  };
  const parsed = parseTypeName<ColumnKind | 'enum'>(raw.type);
  const enumValues = resolveEnumValues(r, path, parsed.kind, raw.values);
  if (!enumValues.ok) ok = false;
  const values = enumValues.ok ? enumValues.values : undefined;
  // An enum is a string column carrying its values.
  const kind: ColumnKind = parsed.kind === 'enum' ? 'string' : parsed.kind;
  const array = parsed.array;
  const nullable = raw.nullable ?? false;
  const typeName = raw.type;
  if (raw.max !== undefined && (kind !== 'string' || parsed.kind === 'enum')) {
    fail(
      'max',
      parsed.kind === 'enum'
        ? '"max" sets the length of a string field (varchar(n)); an enum is limited by its values — remove "max"'
        : `"max" sets the length of a string field (varchar(n)); a ${typeName} field has no length limit — remove "max" or use type string`,
    );
  }
  const type: ColumnType =
    raw.max !== undefined && kind === 'string'
      ? { kind, array, nullable, max: raw.max }
      : { kind, array, nullable, ...(values ? { values } : {}) };

  const primaryKey = raw.primaryKey ?? false;
  if (primaryKey && nullable) fail('nullable', 'a primary key cannot be nullable; remove "nullable"');
  if (primaryKey && (array || kind === 'json' || kind === 'number' || kind === 'file'))
    fail('primaryKey', `a ${typeName} field cannot be a primary key; use integer, bigint, string or uuid`);

  const generated = raw.generated ?? false;
  if (generated) {
    if (array || !(kind === 'integer' || kind === 'bigint' || kind === 'uuid'))
      fail('generated', `"generated" applies to integer and bigint (identity) and uuid (random) fields, not ${typeName}`);
    if (nullable) fail('generated', 'a generated field is never null; remove "nullable"');
    if (raw.default !== undefined) fail('default', 'a generated field gets its value from the database; remove "default" or "generated"');
  }

  let fieldDefault: ResourceField['default'];
  if (generated && kind === 'uuid') fieldDefault = { kind: 'randomUuid' };
  else if (raw.default !== undefined) {
    const converted = columnDefault(type, raw.default);
    const problem =
      converted.ok && values ? enumDefaultProblem(values, converted.value.kind === 'value' ? converted.value.value : null) : undefined;
    if (converted.ok && problem === undefined) fieldDefault = converted.value;
    else {
      ok = false;
      r.error([...path, 'default'], converted.ok ? problem! : converted.message, 'value');
    }
  }

  const omitEmpty = raw.omitEmpty ?? false;
  if (omitEmpty && !nullable && !array && kind !== 'string' && kind !== 'text') {
    fail(
      'omitEmpty',
      `"omitEmpty" omits null, '' and [] values; a non-nullable ${typeName} field is never empty — remove it, or add "nullable: true"`,
    );
  }

  const { unique, emulate } = uniqueOption(raw.unique);
  if (unique === 'live' && !softDelete)
    fail('unique', '"unique: live" means unique among rows not soft-deleted; add "softDelete: true" to the resource or use "unique: true"');
  if (unique !== 'none' && primaryKey) fail('unique', 'a primary key is unique already; remove "unique"');

  if (kind === 'file' && unique !== 'none') fail('unique', 'a file field cannot be unique (it holds a file reference); remove "unique"');
  if (kind === 'file' && raw.references !== undefined)
    fail('references', 'a file field cannot reference another table; remove "references"');

  let references: FieldReference | undefined;
  if (raw.references !== undefined) {
    const spec = typeof raw.references === 'string' ? { to: raw.references } : raw.references;
    const [table = '', column = ''] = spec.to.split('.');
    references = { table, column, onDelete: spec.onDelete ?? 'no action' };
    if (references.onDelete === 'set null' && !nullable)
      fail(
        'references',
        `onDelete "set null" needs a nullable field; add "nullable: true" or choose another action (got ${show(spec.onDelete)})`,
      );
  }

  if (!ok) return undefined;
  const field: ResourceField = {
    name,
    type,
    primaryKey,
    identity: generated && kind !== 'uuid',
    ...(fieldDefault ? { default: fieldDefault } : {}),
    hidden: raw.hidden ?? false,
    json: raw.json ?? name,
    omitEmpty,
    ...(references ? { references } : {}),
    ...(raw.description !== undefined ? { description: raw.description } : {}),
    ...(raw.renamedFrom !== undefined ? { renamedFrom: { name: raw.renamedFrom, origin: r.at([...path, 'renamedFrom'], 'value') } } : {}),
    origin: r.at(path),
  };
  return { field, unique, ...(emulate ? { emulate } : {}) };
}

/**
 * A `unique` option (of a field or an index) as its kind and emulation:
 * `true` → all rows, `live` or `{ among: live }` → live rows, with the
 * `emulate` the object form names.
 */
export function uniqueOption(raw: RawUnique | undefined): { unique: 'none' | 'all' | 'live'; emulate?: 'generated-column' } {
  if (typeof raw === 'object' && raw !== null) return { unique: 'live', ...(raw.emulate ? { emulate: raw.emulate } : {}) };
  return { unique: raw === 'live' ? 'live' : raw === true ? 'all' : 'none' };
}
