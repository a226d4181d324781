/**
 * What a schema may not ask of MySQL and MariaDB, checked when the
 * project's `bindery.databases` includes `mysql` (docs/generator.md
 * "Databases"): each refusal at the position of what asks it, with the
 * reason and the way out.
 *
 * - `unique: live` is a partial unique index (`WHERE deleted_at IS NULL`),
 *   which MySQL and MariaDB do not have: refused unless the schema opts in to
 *   its emulation, `unique: { among: live, emulate: generated-column }`
 *   (`ddl.ts`, `createIndex`). The emulation's generated columns
 *   (`<column>_live`) must not be columns of the table, nor shared by two
 *   emulated indexes.
 * - A unique index or primary key is over whole values, and MySQL indexes at
 *   most 3072 bytes (768 characters of utf8mb4): a text without a limit, a
 *   longer `string`, a JSON value or a list cannot be one. A plain index on a
 *   text without a limit indexes its first 768 characters; JSON and lists
 *   cannot be indexed at all.
 */
import type { Diagnostics } from '../../../../diagnostics.js';
import type { Model, Resource, ResourceField } from '../../../../model/model.js';
import { columnTypeOf } from '../../../column-type.js';
import { liveColumn, TEXT_PREFIX } from './ddl.js';
import { parseColumnType } from '../../../../../runtime/db/column-type.js';

/** The emulation of `unique: live` the schema names to opt in. */
export const LIVE_EMULATION = '{ among: live, emulate: generated-column }';

/**
 * Report what the model asks that MySQL and MariaDB cannot do.
 * @returns whether nothing was reported.
 */
export function checkMysqlSchema(model: Model, diagnostics: Diagnostics): boolean {
  let ok = true;
  const refuse = (resource: Resource, at: Resource['origin'] | undefined, path: string, message: string): void => {
    ok = false;
    diagnostics.add(at ?? resource.origin, path, message);
  };
  for (const resource of model.resources) {
    const path = `resources.${resource.name}`;
    const fields = new Map(resource.fields.map((f) => [f.name, f]));
    const generated = new Map<string, string>();
    for (const index of resource.indexes) {
      const where =
        index.columns.length === 1 && fields.has(index.columns[0]!) && index.origin?.file
          ? `${path}.fields.${index.columns[0]}.unique`
          : `${path}.indexes`;
      if (index.live && index.emulate === undefined) {
        refuse(
          resource,
          index.origin,
          where,
          `"unique: live" (index ${index.name}) is a partial unique index among the rows whose deleted_at is NULL, and MySQL and MariaDB have no partial indexes (bindery.databases in package.json includes "mysql"); opt in to its emulation with "unique: ${LIVE_EMULATION}" — on MySQL a generated column ${index.columns.map(liveColumn).join(', ')} holding the value while deleted_at is NULL, with the unique index ${index.name} on it; PostgreSQL keeps its partial index — or use "unique: true" (docs/schema-language.md "Unique among live rows")`,
        );
        continue;
      }
      if (index.live) {
        for (const column of index.columns) {
          const name = liveColumn(column);
          if (fields.has(name))
            refuse(
              resource,
              index.origin,
              where,
              `the emulation of "unique: live" (index ${index.name}) adds the generated column ${name} on MySQL, but ${resource.table} has a field "${name}"; rename that field`,
            );
          else if (generated.has(name))
            refuse(
              resource,
              index.origin,
              where,
              `the emulated live indexes ${generated.get(name)} and ${index.name} would both add the generated column ${name} on MySQL; keep ${column} in one of them`,
            );
          generated.set(name, index.name);
        }
      }
      for (const column of index.columns) {
        const field = fields.get(column);
        if (field === undefined) continue;
        const problem = indexProblem(field, index.unique);
        if (problem) refuse(resource, index.origin, where, `index ${index.name} on ${resource.table}.${column}: ${problem}`);
      }
    }
    const key = resource.fields.find((f) => f.primaryKey);
    if (key) {
      const problem = indexProblem(key, true);
      if (problem) refuse(resource, key.origin, `${path}.fields.${key.name}`, `the primary key ${resource.table}.${key.name}: ${problem}`);
    }
  }
  return ok;
}

/** Why `field` cannot be (part of) a unique or plain index on MySQL, or undefined. */
function indexProblem(field: ResourceField, unique: boolean): string | undefined {
  const type = parseColumnType(columnTypeOf(field.type));
  if (type === undefined) return undefined;
  if (type.array || type.base === 'json')
    return 'MySQL and MariaDB cannot index a JSON value or a list (bindery.databases includes "mysql"); drop the index, or index another column';
  const unbounded = (type.base === 'string' && type.max === undefined && field.type.values === undefined) || type.base === 'text';
  const tooLong = type.base === 'string' && type.max !== undefined && type.max > TEXT_PREFIX;
  if (unique && (unbounded || tooLong))
    return `MySQL indexes at most 3072 bytes, ${TEXT_PREFIX} characters of utf8mb4, and a unique index holds whole values (bindery.databases includes "mysql"); give the field "max:" of at most ${TEXT_PREFIX}`;
  return undefined;
}
