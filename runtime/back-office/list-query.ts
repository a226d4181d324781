/**
 * A section's list query (docs/back-office.md "The list"): sort by a list
 * column (`?sort=title&dir=asc`), filters by value
 * (`?filter[status]=draft`), search in the text fields (`?q=`, contains,
 * any case), offset pages with a total (`?page=2`, 25 rows a page), and
 * the soft-deleted rows behind a toggle (`?trashed=with` or `only`).
 *
 * Only the section's own columns are ever named in SQL: a parameter naming
 * another column is ignored, and values are bound, never spliced.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { RowScope } from '../authorization/scopes.js';
import type { AnyKysely } from '../db/any-kysely.js';
import { fieldOf, type SectionConfig, type SectionField } from './sections.js';

/** Rows a page. */
export const PAGE_SIZE = 25;

/** Which rows of a soft-delete section: live ones, all, or only the deleted. */
export type Trashed = 'live' | 'with' | 'only';

/** The list's parameters, each one the section allows. */
export interface ListParams {
  /** A list column. */
  readonly sort: string;
  readonly dir: 'asc' | 'desc';
  /** From 1. */
  readonly page: number;
  /** The search text ('' for none). */
  readonly q: string;
  readonly trashed: Trashed;
  /** Filter values by column (as typed), for the section's filters only. */
  readonly filters: Readonly<Record<string, string>>;
}

/** One page of rows. */
export interface ListResult {
  readonly rows: readonly Record<string, unknown>[];
  /** Rows matching, on every page. */
  readonly total: number;
  readonly page: number;
  /** How many pages (at least 1). */
  readonly pages: number;
}

/** The first value of a query parameter, or ''. */
function first(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return '';
}

/**
 * The parameters of `query` (Fastify's parsed query string) the section
 * allows; anything else falls back to its default (newest first by key, page 1, live rows).
 */
export function parseListParams(section: SectionConfig, query: Readonly<Record<string, unknown>>): ListParams {
  const sortText = first(query.sort);
  const sortable = section.list.includes(sortText) || sortText === section.primaryKey;
  const dirText = first(query.dir);
  const pageText = first(query.page);
  const page = /^[1-9]\d{0,6}$/.test(pageText) ? Number(pageText) : 1;
  const trashedText = first(query.trashed);
  const trashed: Trashed = section.softDelete !== null && (trashedText === 'with' || trashedText === 'only') ? trashedText : 'live';
  const filters: Record<string, string> = {};
  for (const name of section.filters) {
    const value = first(query[`filter[${name}]`]);
    if (value !== '') filters[name] = value;
  }
  return {
    sort: sortable ? sortText : section.primaryKey,
    dir: sortable ? (dirText === 'desc' ? 'desc' : 'asc') : dirText === 'asc' ? 'asc' : 'desc',
    page,
    q: first(query.q).slice(0, 200),
    trashed,
    filters,
  };
}

/**
 * A filter's value in the column's type, or undefined when it cannot be one
 * (an enum value not among its values, a number that is not one): such a
 * filter matches no row.
 */
export function filterValue(field: SectionField, text: string): string | number | boolean | undefined {
  switch (field.type) {
    case 'enum':
      return field.values?.includes(text) ? text : undefined;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'integer':
    case 'bigint':
      return /^-?\d{1,18}$/.test(text) ? Number(text) : undefined;
    case 'number':
      return Number.isFinite(Number(text)) && text.trim() !== '' ? Number(text) : undefined;
    default:
      return text;
  }
}

/** `text` for a LIKE pattern: `%`, `_` and `\` escaped (the default escape character of PostgreSQL and MySQL). */
function likeText(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

type Builder = ExpressionBuilder<Record<string, Record<string, unknown>>, string>;

/** The conditions of `params` on the section's rows (not the policy's). */
function conditions(section: SectionConfig, params: ListParams): ((eb: Builder) => Expression<SqlBool>)[] {
  const out: ((eb: Builder) => Expression<SqlBool>)[] = [];
  const t = section.table;
  if (section.softDelete !== null && params.trashed !== 'with') {
    const column = section.softDelete;
    out.push((eb) => eb(eb.ref(`${t}.${column}`), params.trashed === 'only' ? 'is not' : 'is', null));
  }
  for (const [name, text] of Object.entries(params.filters)) {
    const field = fieldOf(section, name);
    if (field === undefined) continue;
    const value = filterValue(field, text);
    out.push(value === undefined ? () => sql<SqlBool>`1 = 0` : (eb) => eb(eb.ref(`${t}.${name}`), '=', value));
  }
  const q = params.q.trim();
  if (q !== '' && section.search.length > 0) {
    const pattern = `%${likeText(q.toLowerCase())}%`;
    out.push((eb) => eb.or(section.search.map((c) => sql<SqlBool>`lower(${sql.ref(`${t}.${c}`)}) like ${pattern}`)));
  }
  return out;
}

/**
 * One page of the section's rows the policy `scope` lets through, by `params`.
 * @param scope the policy's condition for viewing (every row when none).
 */
export async function runSectionList(db: AnyKysely, section: SectionConfig, params: ListParams, scope: RowScope): Promise<ListResult> {
  const conds = conditions(section, params);
  const narrowed = <Q extends { where(c: unknown): Q }>(query: Q): Q => {
    let q = query.where(scope);
    for (const c of conds) q = q.where(c);
    return q;
  };
  const counted = await narrowed(db.selectFrom(section.table).select(sql<string | number>`count(*)`.as('n'))).executeTakeFirst();
  const total = Number(counted?.n ?? 0);
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(params.page, pages);
  let query = narrowed(db.selectFrom(section.table).selectAll()).orderBy(`${section.table}.${params.sort}`, params.dir);
  if (params.sort !== section.primaryKey) query = query.orderBy(`${section.table}.${section.primaryKey}`, params.dir);
  const rows = await query
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE)
    .execute();
  return { rows, total, page, pages };
}

/** The query string of `params` with `change` applied (for the list's links: sort, pages, the toggle). */
export function listQueryString(params: ListParams, change: Partial<Omit<ListParams, 'filters'>> = {}): string {
  const p = { ...params, ...change };
  const search = new URLSearchParams();
  search.set('sort', p.sort);
  search.set('dir', p.dir);
  if (p.q !== '') search.set('q', p.q);
  for (const [name, value] of Object.entries(params.filters)) search.set(`filter[${name}]`, value);
  if (p.trashed !== 'live') search.set('trashed', p.trashed);
  if (p.page > 1) search.set('page', String(p.page));
  return search.toString();
}
