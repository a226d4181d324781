/**
 * Resolving a resource's `backOffice:` (docs/back-office.md "Customising in
 * YAML"): `true` takes the defaults, an object overrides them; every column
 * it names must be a field of the resource, and a section needs the
 * resource tracked by the audit log (the back office writes through it).
 */
import type { RawResource } from '../language/raw.js';
import { didYouMean } from '../suggest.js';
import type { AuditOptions, BackOfficeSection, ResourceField } from './model.js';
import type { Reporter } from './reporter.js';

/** How many columns the list shows by default. */
const DEFAULT_LIST_COLUMNS = 6;

/** A field the forms never edit: the key, identity columns, timestamps, files, lists and JSON. */
export function alwaysReadOnly(field: ResourceField): boolean {
  return (
    field.primaryKey ||
    field.identity ||
    field.name === 'created_at' ||
    field.name === 'updated_at' ||
    field.name === 'deleted_at' ||
    field.type.kind === 'file' ||
    field.type.kind === 'json' ||
    field.type.array
  );
}

/** A text field `?q=` can search: a string (not an enum) or text column. */
function searchable(field: ResourceField): boolean {
  return !field.type.array && field.type.values === undefined && (field.type.kind === 'string' || field.type.kind === 'text');
}

/**
 * The section of resource `name`; null without `backOffice:` (or with
 * `false`); undefined on error (reported to `r`).
 */
export function resolveBackOffice(
  r: Reporter,
  path: readonly string[],
  raw: RawResource,
  fields: readonly ResourceField[],
  audit: AuditOptions | null,
): BackOfficeSection | null | undefined {
  const option = raw.backOffice;
  if (option === undefined || option === false) return null;
  const at = [...path, 'backOffice'];
  if (audit === null || !audit.track) {
    r.error(
      at,
      `a back-office section writes through the audit log, so resource ${path[1]} must be tracked: add "audit: { track: true }", or remove "backOffice"`,
    );
    return undefined;
  }
  const o = option === true ? {} : option;
  const columns = fields.map((f) => f.name);
  let ok = true;
  const known = (
    key: string,
    list: readonly string[] | undefined,
    check?: (f: ResourceField) => string | null,
  ): readonly string[] | undefined => {
    if (list === undefined) return undefined;
    list.forEach((c, i) => {
      const field = fields.find((f) => f.name === c);
      if (field === undefined) {
        ok = false;
        r.error([...at, key, i], `unknown column "${c}"${didYouMean(c, columns)} in resource ${path[1]}`, 'value');
        return;
      }
      const problem = check?.(field);
      if (problem) {
        ok = false;
        r.error([...at, key, i], problem, 'value');
      }
    });
    return list;
  };
  for (const [c] of Object.entries(o.labels ?? {}))
    if (!columns.includes(c)) {
      ok = false;
      r.error([...at, 'labels', c], `unknown column "${c}"${didYouMean(c, columns)} in resource ${path[1]}`, 'key');
    }
  const shownByDefault = fields.filter((f) => !f.hidden || f.name === 'deleted_at').map((f) => f.name);
  const shown = known('fields', o.fields) ?? shownByDefault;
  const list = known('list', o.list) ?? defaultList(fields.filter((f) => shown.includes(f.name)));
  const filters =
    known('filters', o.filters, (f) =>
      f.type.array || f.type.kind === 'json' || f.type.kind === 'file'
        ? `"${f.name}" cannot be a filter: lists, JSON and files are not compared by value`
        : null,
    ) ??
    fields
      .filter((f) => shown.includes(f.name) && (f.type.values !== undefined || f.type.kind === 'boolean' || f.references !== undefined))
      .map((f) => f.name);
  const search =
    known('search', o.search, (f) => (searchable(f) ? null : `"${f.name}" cannot be searched: search takes string and text columns`)) ??
    fields.filter((f) => shown.includes(f.name) && searchable(f) && !f.hidden).map((f) => f.name);
  const readOnly = known('readOnly', o.readOnly) ?? [];
  if (!ok) return undefined;
  return {
    label: o.label ?? humanize(raw.table),
    labels: { ...(o.labels ?? {}) },
    fields: [...shown],
    list: [...list],
    filters: [...filters],
    search: [...search],
    readOnly: [...readOnly],
  };
}

/** The key, then the first scalar columns that are not long text, up to {@link DEFAULT_LIST_COLUMNS}. */
function defaultList(fields: readonly ResourceField[]): string[] {
  return fields
    .filter((f) => f.primaryKey || (!f.type.array && f.type.kind !== 'text' && f.type.kind !== 'json' && f.name !== 'deleted_at'))
    .slice(0, DEFAULT_LIST_COLUMNS)
    .map((f) => f.name);
}

/** `document_attachments` → `Document attachments`; `owner_id` → `Owner ID`. */
export function humanize(name: string): string {
  const words = name
    .split('_')
    .filter((w) => w !== '')
    .map((w) => (w === 'id' ? 'ID' : w));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
