/**
 * Names a schema file may not use (the list lives in
 * `generator/language/reserved.ts`, shown in docs/schema-language.md
 * "Reserved names"): prototype keys as any name, and tables the framework,
 * a setup step or a plugin creates.
 */
import { isPrototypeKey, PROTOTYPE_KEYS, tableOwner } from '../language/reserved.js';
import type { DataPath } from '../load/node-position.js';
import type { Reporter } from './reporter.js';

/** Keys whose string value becomes a name in generated code or in a request (bindings, JSON names, tables, indexes). */
const NAMING_KEYS = new Set(['json', 'form', 'query', 'header', 'path', 'table', 'name']);

/**
 * Report every map key, and every value of a naming key (`json`, `form`,
 * `query`, `header`, `path`, `table`, `name`), that is a prototype key
 * (`__proto__`, `constructor`, `prototype`). Values under `default:` are data,
 * not names, and are not looked at.
 * @param data the file's data (after the structure check).
 * @returns false when one was found.
 */
export function checkPrototypeKeys(r: Reporter, data: unknown): boolean {
  let ok = true;
  const walk = (value: unknown, path: DataPath): void => {
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) walk(item, [...path, i]);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    for (const [key, child] of Object.entries(value)) {
      if (isPrototypeKey(key)) {
        ok = false;
        r.errorFrom([...path, key], 'BINDERY_SCHEMA_RESERVED_NAME', {
          name: key,
          consequence: 'a field, input or name called that would read or replace it',
          fix: 'rename it',
          reserved: PROTOTYPE_KEYS.join(', '),
        });
        continue;
      }
      // The `default:` of a field is data, not a name (a field itself may be called "default").
      const inField = path[path.length - 2] === 'fields' || path[path.length - 2] === 'input';
      if (key === 'default' && inField) continue;
      if (NAMING_KEYS.has(key) && typeof child === 'string' && isPrototypeKey(child)) {
        ok = false;
        r.errorFrom(
          [...path, key],
          'BINDERY_SCHEMA_RESERVED_NAME',
          { name: child, consequence: 'it cannot be a name', fix: 'choose another', reserved: PROTOTYPE_KEYS.join(', ') },
          'value',
        );
        continue;
      }
      walk(child, [...path, key]);
    }
  };
  walk(data, []);
  return ok;
}

/**
 * Report a resource whose table the framework, a setup step or a plugin
 * creates (its migration would fail with "relation already exists").
 * @param pluginTables tables of the app's plugins: table name → plugin package name.
 * @returns false when the table is reserved.
 */
export function checkTableName(r: Reporter, resource: string, table: string, pluginTables: ReadonlyMap<string, string>): boolean {
  const owner = tableOwner(table, pluginTables);
  if (owner === undefined) return true;
  r.errorFrom(
    ['resources', resource, 'table'],
    'BINDERY_SCHEMA_RESERVED_TABLE',
    { table, owner, suggestion: `app_${table.replace(/^bindery_/, '')}` },
    'value',
  );
  return false;
}
