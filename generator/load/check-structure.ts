/**
 * Validate each schema file's data against the language's JSON Schema
 * (`generator/language/bindery.schema.json`) with ajv, and map every ajv
 * error back to the YAML node it is about.
 */
import type { ErrorObject } from 'ajv';
import type { Diagnostics } from '../diagnostics.js';
import { describeAjvError } from './ajv-messages.js';
import { formatPath, positionOf, type DataPath } from './node-position.js';
import type { SchemaFile } from './schema-file.js';
import { languageValidator } from './language-validator.js';
import { splitRuleHint } from './split-rule.js';

/**
 * Check `file.data` against the language schema. Each error becomes a
 * diagnostic at the YAML node it names (the key of an unknown or missing
 * entry, the value of a wrong value). Returns true when the file is valid.
 */
export function checkStructure(file: SchemaFile, diagnostics: Diagnostics): boolean {
  const validate = languageValidator();
  if (validate(file.data)) return true;
  for (const error of relevant(validate.errors ?? [])) {
    const { path, at, message } = describeAjvError(error, pointerToPath(error.instancePath));
    diagnostics.add(positionOf(file, path, at), formatPath(path), `${message}${ruleHint(file.data, path)}`);
  }
  return false;
}

/** For an item of a `validate:` list, the hint that it may be the rest of a rule YAML cut at a comma. */
function ruleHint(data: unknown, path: DataPath): string {
  const index = path[path.length - 1];
  if (typeof index !== 'number' || path[path.length - 2] !== 'validate') return '';
  let list: unknown = data;
  for (const segment of path.slice(0, -1)) list = (list as Record<string | number, unknown> | undefined)?.[segment];
  return Array.isArray(list) ? splitRuleHint(list, index) : '';
}

/** Drop the summary errors ajv adds on top of the precise ones (`if`, `propertyNames`). */
function relevant(errors: readonly ErrorObject[]): ErrorObject[] {
  return errors.filter((e) => e.keyword !== 'if' && e.keyword !== 'propertyNames');
}

/** JSON Pointer (`/routes/notes.create/input`) → data path. */
function pointerToPath(pointer: string): DataPath {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => {
      const key = s.replace(/~1/g, '/').replace(/~0/g, '~');
      return /^\d+$/.test(key) ? Number(key) : key;
    });
}
