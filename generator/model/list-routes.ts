/**
 * Resolving a route's `list:` (docs/schema-language.md "List routes"): the
 * resource listed, its sort keys and filters, checked
 * against the resource; and the query fields the list adds to the route's
 * input (`limit`, `cursor`, `sort`, `filter[<name>]…`), so that binding,
 * validators, types, OpenAPI and the client treat them like any other input.
 *
 * A filter or sort key on a column that no index starts with is a warning
 * naming the index to add.
 */
import type { ListFilterOp, RuleRef } from '../../runtime/routing/route-table.js';
import type { RawFilterOp, RawList } from '../language/raw.js';
import type { DataPath } from '../load/node-position.js';
import type { FilterThrough, InputField, Resource, ResourceField, RouteList, RouteListFilter } from './model.js';
import { didYouMean } from '../suggest.js';
import type { Reporter } from './reporter.js';

/** Rows per page without `limit=`, and the largest `limit=`, unless the YAML says otherwise. */
export const DEFAULT_LIMIT = 20;
export const DEFAULT_MAX_LIMIT = 100;

/** The input keys a list route adds (its own `input:` cannot use them). */
export const LIST_KEYS = ['limit', 'cursor', 'offset', 'sort'] as const;

/** The resolved list and the input fields it adds. */
export interface ResolvedList {
  readonly list: RouteList;
  readonly fields: readonly InputField[];
}

/** Reports a list's errors under `path`, remembering that there was one (`fail`). */
type Fail = (sub: DataPath, message: string, at?: 'key' | 'value') => void;

/** A visible column of the listed resource by name, or undefined after reporting why it cannot be used (`what`: "a sort key", "a filter"). */
type FieldOf = (sub: DataPath, name: string, what: string, at: 'key' | 'value') => ResourceField | undefined;

/**
 * Resolve `routes.<name>.list` at `path`. Errors (and index warnings) go to
 * `r`; returns undefined on an error.
 * @param resources the resolved resources by name.
 */
export function resolveList(r: Reporter, path: DataPath, raw: RawList, resources: ReadonlyMap<string, Resource>): ResolvedList | undefined {
  const listed = listedResource(r, path, raw, resources);
  if (!listed) return undefined;
  const { resource, pk } = listed;
  let ok = true;
  const fail: Fail = (sub, message, at = 'value') => {
    ok = false;
    r.error([...path, ...sub], message, at);
  };
  const fieldOf = columnLookup(resource, fail);

  const { sort, allowed } = resolveSort(r, path, raw, resource, pk, fail, fieldOf);
  // A defaultSort is checked against the sort keys only when they have no errors.
  const defaultSort = resolveDefaultSort(ok ? raw.defaultSort : undefined, sort, fail);
  const { filters, fields } = resolveFilters(r, path, raw, resource, resources, fail, fieldOf);

  const maxLimit = raw.maxLimit ?? DEFAULT_MAX_LIMIT;
  const limit = raw.limit ?? Math.min(DEFAULT_LIMIT, maxLimit);
  if (limit > maxLimit) fail(['limit'], `the default page size ${limit} is over maxLimit ${maxLimit}; lower it or raise maxLimit`);
  if (!ok) return undefined;

  const paging = raw.paging ?? 'cursor';
  const listFields = pageFields(paging, limit, maxLimit, defaultSort, allowed);
  return {
    list: { resource: resource.name, sort, defaultSort, filters, limit, maxLimit, paging },
    fields: [...listFields, ...fields],
  };
}

/** The resource a list pages through, with its primary key (the last order of every page); undefined after reporting when it has none or is unknown. */
function listedResource(
  r: Reporter,
  path: DataPath,
  raw: RawList,
  resources: ReadonlyMap<string, Resource>,
): { resource: Resource; pk: ResourceField } | undefined {
  const resource = resources.get(raw.resource);
  if (!resource) {
    r.error(
      [...path, 'resource'],
      `unknown resource "${raw.resource}"${didYouMean(raw.resource, resources.keys())}; declare it under "resources:"`,
      'value',
    );
    return undefined;
  }
  const pk = resource.fields.find((f) => f.primaryKey);
  if (!pk) {
    r.error(
      [...path, 'resource'],
      `resource ${resource.name} has no primary key; pages are ordered by the sort key and then the primary key, so give it one (primaryKey: true)`,
      'value',
    );
    return undefined;
  }
  return { resource, pk };
}

/** Looks up the columns a list sorts or filters by: not computed, not hidden, with a suggestion when misspelt. */
function columnLookup(resource: Resource, fail: Fail): FieldOf {
  const columns = resource.fields.filter((f) => !f.hidden).map((f) => f.name);
  return (sub, name, what, at) => {
    const field = resource.fields.find((f) => f.name === name);
    const computed = resource.computed?.find((c) => c.name === name);
    if (!field && computed)
      fail(
        sub,
        `"${name}" is a computed field of ${resource.name}, not a column; a list ${what === 'a sort key' ? 'sorts' : 'filters'} by columns${what === 'a sort key' ? '' : ` — filter through its relation instead: { through: ${computed.relation}, field: <a field of the related resource> }`}`,
        at,
      );
    else if (!field)
      fail(
        sub,
        `${resource.name} has no field "${name}"${didYouMean(name, columns)}; ${what} names a field of the resource: ${columns.join(', ')}`,
        at,
      );
    else if (field.hidden)
      fail(sub, `"${name}" is hidden (never sent to clients); a client cannot ${what === 'a sort key' ? 'sort' : 'filter'} by it`, at);
    return field?.hidden ? undefined : field;
  };
}

/** The sort keys (the primary key alone when none are given), each a single non-null value, and the `sort=` values they allow. */
function resolveSort(
  r: Reporter,
  path: DataPath,
  raw: RawList,
  resource: Resource,
  pk: ResourceField,
  fail: Fail,
  fieldOf: FieldOf,
): { sort: RouteList['sort'][number][]; allowed: string[] } {
  const sort: { name: string; column: string }[] = [];
  const sortNames = raw.sort ?? [pk.name];
  sortNames.forEach((name, i) => {
    const field = fieldOf(['sort', i], name, 'a sort key', 'value');
    if (!field) return;
    if (field.type.nullable || field.type.array || field.type.kind === 'json' || field.type.kind === 'file') {
      fail(
        ['sort', i],
        `cannot sort pages by "${name}": a sort key must be a single, non-null value (${field.type.nullable ? 'it is nullable' : `it is a ${field.type.kind}${field.type.array ? ' list' : ''}`})`,
      );
      return;
    }
    sort.push({ name: field.json, column: field.name });
    indexAdvice(r, [...path, 'sort', i], resource, field.name, `sorting by "${name}"`);
  });
  return { sort, allowed: sort.flatMap((s) => [s.name, `-${s.name}`]) };
}

/** The order without `sort=` as the client writes it (`-created_at`): `wanted` (YAML `defaultSort:`), else the first sort key descending. */
function resolveDefaultSort(wanted: string | undefined, sort: RouteList['sort'], fail: Fail): string {
  const first = sort.length > 0 ? `-${sort[0]!.name}` : '';
  if (wanted === undefined) return first;
  const desc = wanted.startsWith('-');
  const column = desc ? wanted.slice(1) : wanted;
  const key = sort.find((s) => s.column === column);
  if (key) return `${desc ? '-' : ''}${key.name}`;
  fail(
    ['defaultSort'],
    `"${column}" is not a sort key of this list${didYouMean(
      column,
      sort.map((s) => s.column),
    )}; the default order is one of: ${sort.map((s) => s.column).join(', ')} (with - for descending)`,
  );
  return first;
}

/** The query fields of a page: `limit`, `cursor` or `offset`, `sort`. */
function pageFields(
  paging: 'cursor' | 'offset',
  limit: number,
  maxLimit: number,
  defaultSort: string,
  allowed: readonly string[],
): InputField[] {
  const rule = (name: string, ...params: (string | number)[]): RuleRef => ({ name, params });
  return [
    {
      key: 'limit',
      source: 'query',
      name: 'limit',
      type: { kind: 'integer', array: false, nullable: false },
      default: limit,
      // 0 is a valid size: an empty page (docs/schema-language.md "The query parameters").
      rules: [rule('min', 0), rule('max', maxLimit)],
      required: false,
      description: `Rows per page, 0 to ${maxLimit} (0: an empty page).`,
    },
    paging === 'offset'
      ? {
          key: 'offset',
          source: 'query',
          name: 'offset',
          type: { kind: 'integer', array: false, nullable: false },
          default: 0,
          rules: [rule('min', 0)],
          required: false,
          description: 'Rows skipped before the page (default 0).',
        }
      : {
          key: 'cursor',
          source: 'query',
          name: 'cursor',
          type: { kind: 'string', array: false, nullable: false },
          rules: [],
          required: false,
          description: 'The `next` of the previous page; absent for the first page.',
        },
    {
      key: 'sort',
      source: 'query',
      name: 'sort',
      type: { kind: 'string', array: false, nullable: false },
      default: defaultSort,
      rules: [rule('in', ...allowed)],
      required: false,
      description: `The order: a sort key, descending with a leading -: ${allowed.join(', ')}.`,
    },
  ];
}

/** The filters of a list (short and long forms, through relations) and the input fields they add; errors go to `fail`. */
function resolveFilters(
  r: Reporter,
  path: DataPath,
  raw: RawList,
  resource: Resource,
  resources: ReadonlyMap<string, Resource>,
  fail: Fail,
  fieldOf: FieldOf,
): { filters: RouteListFilter[]; fields: InputField[] } {
  const filters: RouteListFilter[] = [];
  const fields: InputField[] = [];
  for (const [name, rawFilter] of Object.entries(raw.filter ?? {})) {
    const long = typeof rawFilter === 'object' ? rawFilter : undefined;
    const op: RawFilterOp = long ? (long.op ?? 'eq') : (rawFilter as RawFilterOp);
    let field: ResourceField | undefined;
    let through: FilterThrough | undefined;
    if (long?.through !== undefined) {
      const found = throughOf(fail, ['filter', name, 'through'], long.through, resource, resources);
      if (!found) continue;
      through = found.through;
      const target = found.target;
      const column = long.field ?? name;
      field = target.fields.find((f) => f.name === column);
      const visible = target.fields.filter((f) => !f.hidden).map((f) => f.name);
      if (!field || field.hidden) {
        fail(
          ['filter', name, long.field !== undefined ? 'field' : 'through'],
          `${target.name} has no ${field ? 'visible ' : ''}field "${column}"${didYouMean(column, visible)}; with through, field names a field of the related resource ${target.name}: ${visible.join(', ')}`,
        );
        continue;
      }
    } else {
      if (long?.field !== undefined) {
        fail(
          ['filter', name, 'field'],
          '"field" goes with "through" (a field of the related resource); without it the filter\'s name is the field',
        );
        continue;
      }
      field = fieldOf(['filter', name], name, 'a filter', 'key');
      if (!field) continue;
    }
    const problem = filterProblem(field, op);
    if (problem !== undefined) {
      fail(['filter', name], `"${name}: ${op}": ${problem}`);
      continue;
    }
    if (op !== 'contains' && !through) indexAdvice(r, [...path, 'filter', name], resource, field.name, `filtering by "${name}"`);
    const bounds: readonly ListFilterOp[] = op === 'range' ? ['gte', 'gt', 'lte', 'lt'] : [op];
    const json = through ? name : field.json;
    for (const bound of bounds) {
      const key = op === 'range' ? `filter_${name}_${bound}` : `filter_${name}`;
      const base = long?.query ?? `filter[${json}]`;
      const param = op === 'range' ? `${base}[${bound}]` : base;
      filters.push({ key, param, column: field.name, op: bound, ...(through ? { through } : {}) });
      const kind =
        field.type.kind === 'bigint' ? 'integer' : field.type.kind === 'text' || field.type.kind === 'uuid' ? 'string' : field.type.kind;
      const values = memberValues(field, op);
      fields.push({
        key,
        source: 'query',
        name: param,
        rules: values ? [{ name: 'enum', params: values }] : [],
        required: false,
        type: { kind: kind as InputField['type']['kind'], array: false, nullable: false },
        ...(values ? { values } : {}),
        description: filterText(op, bound, through ? `${long!.through}.${field.json}` : field.json),
      });
    }
  }
  return { filters, fields };
}

/**
 * The values a filter's parameter must be one of: an enum field's values when
 * the filter compares whole values — `eq` on an enum, `contains` on an enum
 * list (the list holds the value) — so the parameter gets the enum's type and
 * its implied `enum` rule, like an input field of the enum (a value outside it
 * is a 422). Undefined for other filters: a `prefix`, or `contains` on a
 * single enum (a substring), takes any text.
 */
function memberValues(field: ResourceField, op: RawFilterOp): readonly string[] | undefined {
  const values = field.type.values;
  if (values === undefined) return undefined;
  return op === 'eq' || (op === 'contains' && field.type.array) ? values : undefined;
}

/** Why `op` cannot filter `field`, or undefined when it can. */
function filterProblem(field: ResourceField, op: RawFilterOp): string | undefined {
  const { kind, array } = field.type;
  if (kind === 'json') return 'a json field cannot be filtered';
  if (kind === 'file') return 'a file field cannot be filtered';
  switch (op) {
    case 'eq':
      return array ? 'a list field is filtered with "contains"' : undefined;
    case 'prefix':
      return !array && (kind === 'string' || kind === 'text') ? undefined : 'prefix applies to string and text fields';
    case 'contains':
      return array || kind === 'string' || kind === 'text'
        ? undefined
        : 'contains applies to list fields (the list holds the value) and string and text fields (the text holds it)';
    case 'range':
      return !array && ['integer', 'bigint', 'number', 'timestamp', 'duration'].includes(kind)
        ? undefined
        : 'range applies to numbers, durations and timestamps';
  }
}

function filterText(op: RawFilterOp, bound: ListFilterOp, name: string): string {
  switch (bound) {
    case 'eq':
      return `Only rows whose ${name} equals the value.`;
    case 'prefix':
      return `Only rows whose ${name} starts with the value.`;
    case 'contains':
      return `Only rows whose ${name} contains the value.`;
    default:
      return `Only rows whose ${name} is ${({ gte: 'at least', gt: 'more than', lte: 'at most', lt: 'less than' } as const)[bound]} the value (${op}).`;
  }
}

/** Warn when no index of `resource` (nor its primary key) starts with `column`. */
function indexAdvice(r: Reporter, at: DataPath, resource: Resource, column: string, what: string): void {
  if (resource.primaryKey === column || resource.indexes.some((i) => i.columns[0] === column)) return;
  r.warn(
    at,
    `${what} reads the whole table of ${resource.name}: no index starts with "${column}"; add "- { columns: [${column}] }" under resources.${resource.name}.indexes`,
    'value',
  );
}

/** The relation `name` of `resource` a filter goes through (belongs-to or many-to-many), with its related resource; reports and returns undefined when there is none. */
function throughOf(
  fail: Fail,
  at: DataPath,
  name: string,
  resource: Resource,
  resources: ReadonlyMap<string, Resource>,
): { through: FilterThrough; target: Resource } | undefined {
  const relation = resource.relations?.find((x) => x.name === name);
  if (relation) {
    return {
      through: {
        resource: relation.resource,
        table: relation.table,
        key: relation.key,
        column: relation.ownerKey,
        join: { table: relation.joinTable, from: relation.from, to: relation.to },
      },
      target: resources.get(relation.resource)!,
    };
  }
  const field = resource.fields.find((f) => f.name === `${name}_id` && f.references);
  const target = field ? [...resources.values()].find((x) => x.table === field.references!.table) : undefined;
  if (!field || !target) {
    const known = [
      ...resource.fields.filter((f) => f.references && f.name.endsWith('_id')).map((f) => f.name.slice(0, -3)),
      ...(resource.relations ?? []).map((x) => x.name),
    ];
    fail(
      at,
      `${resource.name} has no relation "${name}"${didYouMean(name, known)}; through names a many-to-many relation or a references field without its _id${known.length > 0 ? ` (here: ${known.join(', ')})` : ''}`,
    );
    return undefined;
  }
  return { through: { resource: target.name, table: target.table, key: field.references!.column, column: field.name }, target };
}
