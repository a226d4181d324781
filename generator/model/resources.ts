/**
 * Resolving resources (`resources.<Name>`): fields, implicit timestamp
 * columns, indexes, audit options — and the checks across resources (table
 * names, index names, foreign keys).
 */
import { createHash } from 'node:crypto';
import type { RawResource } from '../language/raw.js';
import type { AuditOptions, Resource, ResourceField, ResourceIndex } from './model.js';
import { didYouMean } from '../suggest.js';
import type { Reporter } from './reporter.js';
import { resolveResourceField, uniqueOption } from './resource-field.js';
import { resolveBackOffice } from './back-office.js';

/** PostgreSQL's identifier limit (bytes; names here are ASCII). */
const MAX_IDENTIFIER = 63;

/**
 * Resolve resource `name`. Errors go to `r`; returns undefined when the
 * resource has an error.
 */
export function resolveResource(r: Reporter, name: string, raw: RawResource): Resource | undefined {
  const path = ['resources', name];
  const softDelete = raw.softDelete ?? false;
  const timestamps = raw.timestamps ?? false;
  let ok = true;
  const fields: ResourceField[] = [];
  const uniques: ResourceIndex[] = [];
  for (const [fieldName, rawField] of Object.entries(raw.fields)) {
    const resolved = resolveResourceField(r, [...path, 'fields', fieldName], fieldName, rawField, softDelete);
    if (!resolved) {
      ok = false;
      continue;
    }
    fields.push(resolved.field);
    if (resolved.unique !== 'none') {
      const made = makeIndex(raw.table, [fieldName], true, resolved.unique === 'live');
      const origin = r.at([...path, 'fields', fieldName, 'unique'], 'value');
      uniques.push({ ...made, ...(resolved.emulate ? { emulate: resolved.emulate } : {}), origin });
    }
  }

  const implicit: [string, boolean, 'timestamps' | 'softDelete'][] = [
    ['created_at', timestamps, 'timestamps'],
    ['updated_at', timestamps, 'timestamps'],
    ['deleted_at', softDelete, 'softDelete'],
  ];
  for (const [column, enabled, option] of implicit) {
    if (!enabled) continue;
    if (column in raw.fields) {
      ok = false;
      r.error(
        [...path, 'fields', column],
        `"${column}" is added by "${option}: true"; remove the field, or remove "${option}" and declare the columns yourself`,
      );
      continue;
    }
    fields.push({
      name: column,
      type: { kind: 'timestamp', array: false, nullable: column === 'deleted_at' },
      primaryKey: false,
      identity: false,
      ...(column === 'deleted_at' ? {} : { default: { kind: 'now' } as const }),
      hidden: column === 'deleted_at',
      json: column,
      omitEmpty: false,
      origin: r.at([...path, option]),
    });
  }

  const primaryKeys = fields.filter((f) => f.primaryKey);
  for (const extra of primaryKeys.slice(1)) {
    ok = false;
    r.error(
      [...path, 'fields', extra.name, 'primaryKey'],
      `resource ${name} already has the primary key "${primaryKeys[0]!.name}"; composite primary keys are not supported — keep one and add a unique index`,
    );
  }
  const primaryKey = primaryKeys[0]?.name ?? null;

  const jsonNames = new Map<string, string>();
  for (const f of fields.filter((x) => !x.hidden)) {
    const other = jsonNames.get(f.json);
    if (other !== undefined) {
      ok = false;
      r.error(
        [...path, 'fields', f.name],
        `JSON name "${f.json}" is already used by field "${other}"; give one of them another "json" name`,
      );
    }
    jsonNames.set(f.json, f.name);
  }

  const columns = fields.map((f) => f.name);
  const indexes = [...uniques];
  (raw.indexes ?? []).forEach((index, i) => {
    const indexPath = [...path, 'indexes', i];
    const missing = index.columns.map((c, j) => [c, j] as const).filter(([c]) => !columns.includes(c));
    for (const [c, j] of missing)
      r.error([...indexPath, 'columns', j], `unknown column "${c}"${didYouMean(c, columns)} in resource ${name}`, 'value');
    const option = uniqueOption(index.unique);
    const live = option.unique === 'live';
    if (live && !softDelete)
      r.error(
        [...indexPath, 'unique'],
        '"unique: live" means unique among rows not soft-deleted; add "softDelete: true" to the resource or use "unique: true"',
      );
    if (missing.length > 0 || (live && !softDelete)) {
      ok = false;
      return;
    }
    const made = {
      ...makeIndex(raw.table, index.columns, option.unique !== 'none', live),
      ...(option.emulate ? { emulate: option.emulate } : {}),
      origin: r.at(index.unique !== undefined ? [...indexPath, 'unique'] : indexPath, index.unique !== undefined ? 'value' : 'key'),
    };
    indexes.push(index.name === undefined ? made : { ...made, name: index.name });
  });

  const audit = resolveAudit(r, path, raw, columns, primaryKey);
  if (audit === undefined) ok = false;
  // A mistake in backOffice: is reported, and the resource stays (so what names it is not refused too).
  const backOffice = audit === undefined ? null : resolveBackOffice(r, path, raw, fields, audit);

  if (!ok) return undefined;
  return {
    name,
    table: raw.table,
    ...(raw.description !== undefined ? { description: raw.description } : {}),
    fields,
    timestamps,
    softDelete,
    indexes: indexes.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    audit: audit ?? null,
    ...(backOffice ? { backOffice } : {}),
    primaryKey,
    ...(raw.renamedFrom !== undefined ? { renamedFrom: { name: raw.renamedFrom, origin: r.at([...path, 'renamedFrom'], 'value') } } : {}),
    origin: r.at(path),
  };
}

/** Audit options (`track` defaults to true when `audit:` is present); undefined on error, null when absent. */
function resolveAudit(
  r: Reporter,
  path: readonly string[],
  raw: RawResource,
  columns: readonly string[],
  primaryKey: string | null,
): AuditOptions | null | undefined {
  if (raw.audit === undefined) return null;
  let ok = true;
  const lists = { except: raw.audit.except ?? [], redact: raw.audit.redact ?? [], reveal: raw.audit.reveal ?? [] };
  for (const [key, list] of Object.entries(lists)) {
    list.forEach((c, i) => {
      if (columns.includes(c)) return;
      ok = false;
      r.error([...path, 'audit', key, i], `unknown column "${c}"${didYouMean(c, columns)} in resource ${path[1]}`, 'value');
    });
  }
  const track = raw.audit.track ?? true;
  if (track && primaryKey === null) {
    ok = false;
    r.error(
      [...path, 'audit'],
      `an audited resource needs a primary key: each audit entry names its row by it; mark one field "primaryKey: true" or set "track: false"`,
    );
  }
  return ok ? { track, ...lists } : undefined;
}

/**
 * An index with its default name: `<table>_<columns>_idx`, `_key` when
 * unique, `_live_key` when unique among live rows; names longer than 63
 * characters are cut and end with a short hash so they stay distinct.
 */
function makeIndex(table: string, columns: readonly string[], unique: boolean, live: boolean): ResourceIndex {
  const full = `${table}_${columns.join('_')}${live ? '_live' : ''}_${unique ? 'key' : 'idx'}`;
  const name =
    full.length <= MAX_IDENTIFIER
      ? full
      : `${full.slice(0, MAX_IDENTIFIER - 9)}_${createHash('sha256').update(full).digest('hex').slice(0, 8)}`;
  return { name, columns, unique, live };
}

/** A resolved resource with the reporter of the file declaring it. */
export interface DeclaredResource {
  readonly resource: Resource;
  readonly r: Reporter;
}

/**
 * Checks across resources: table names used once, index names distinct from
 * each other and from tables (PostgreSQL keeps them in one namespace), foreign
 * keys pointing at an existing primary-key or unique column of a compatible
 * type.
 */
export function checkResources(declared: readonly DeclaredResource[]): void {
  const tables = new Map<string, DeclaredResource>();
  for (const d of declared) {
    const first = tables.get(d.resource.table);
    if (first) {
      d.r.error(
        ['resources', d.resource.name, 'table'],
        `table "${d.resource.table}" is already used by resource ${first.resource.name}; give each resource its own table`,
        'value',
      );
    } else {
      tables.set(d.resource.table, d);
    }
  }
  const relations = new Map<string, string>([...tables.keys()].map((t) => [t, `table ${t}`]));
  for (const d of declared) {
    d.resource.indexes.forEach((index) => {
      const other = relations.get(index.name);
      if (other !== undefined) {
        d.r.error(
          ['resources', d.resource.name, 'indexes'],
          `index name "${index.name}" is already used by ${other}; set another "name" on one of the indexes`,
        );
      }
      relations.set(index.name, `an index of table ${d.resource.table}`);
    });
  }
  for (const d of declared) {
    for (const field of d.resource.fields) {
      if (field.references) checkReference(d, field, tables);
    }
  }
}

function checkReference(d: DeclaredResource, field: ResourceField, tables: ReadonlyMap<string, DeclaredResource>): void {
  const ref = field.references!;
  const path = ['resources', d.resource.name, 'fields', field.name, 'references'];
  const target = tables.get(ref.table);
  if (!target) {
    d.r.error(path, `references unknown table "${ref.table}"${didYouMean(ref.table, tables.keys())}; name the table of a resource`);
    return;
  }
  const column = target.resource.fields.find((f) => f.name === ref.column);
  if (!column) {
    d.r.error(
      path,
      `references unknown column "${ref.column}" of table ${ref.table}${didYouMean(
        ref.column,
        target.resource.fields.map((f) => f.name),
      )}`,
    );
    return;
  }
  const unique =
    column.primaryKey || target.resource.indexes.some((i) => i.unique && !i.live && i.columns.length === 1 && i.columns[0] === column.name);
  if (!unique) {
    d.r.error(
      path,
      `references ${ref.table}.${ref.column}, which is neither the primary key nor unique; a foreign key needs one of them (add "unique: true" to it)`,
    );
    return;
  }
  if (family(column) !== family(field)) {
    d.r.error(
      path,
      `references ${ref.table}.${ref.column} of type ${typeName(column)}, but this field is ${typeName(field)}; use the same type`,
    );
  }
}

function family(f: ResourceField): string {
  const k = f.type.kind;
  const base = k === 'integer' || k === 'bigint' ? 'integer' : k === 'text' ? 'string' : k;
  return f.type.array ? `${base}[]` : base;
}

function typeName(f: ResourceField): string {
  return `${f.type.kind}${f.type.array ? '[]' : ''}`;
}
