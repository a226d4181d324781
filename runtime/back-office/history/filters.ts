/**
 * The activity page's query string (docs/back-office.md "History and
 * revert"): `actor` (`user:4`, or a type alone), `resource` (table or
 * resource name), `action`, `request` (a request ID), `from` and `to`
 * (dates or date-times; `from` inclusive, `to` exclusive), `page` (from 1)
 * and `per` (1–200). A value that cannot be a filter is left out and said
 * so — the page lists without it — never a server error. (framework-internal.)
 */
import type { ActivityFilters } from '../../audit/index.js';

/** The parsed query: the filters that apply, the page, and a message per value left out. */
export interface ParsedActivityQuery {
  readonly filters: ActivityFilters;
  readonly page: number;
  readonly perPage: number;
  /** The values as typed, for the form (`request` and the rest, by their query names). */
  readonly values: Readonly<Record<string, string>>;
  /** Why a value was left out, by its query name. */
  readonly ignored: Readonly<Record<string, string>>;
}

const NAMES = ['actor', 'resource', 'action', 'request', 'from', 'to'] as const;
const MAX = { actor: 356, resource: 255, action: 255, request: 255 } as const;
const ACTOR = /^[A-Za-z0-9_.-]+(:.+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?$/;

function one(value: unknown): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (typeof v !== 'string') return undefined;
  const trimmed = v.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** A date (`2025-11-21`: midnight UTC) or date-time (UTC unless it names an offset), else undefined. */
export function parseTime(text: string): Date | undefined {
  if (!DATE.test(text) && !DATE_TIME.test(text)) return undefined;
  const iso = DATE.test(text) ? `${text}T00:00:00Z` : /(Z|[+-]\d{2}:\d{2})$/.test(text) ? text : `${text}Z`;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function positive(text: string | undefined, fallback: number, max: number): number | undefined {
  if (text === undefined) return fallback;
  if (!/^\d{1,9}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 && n <= max ? n : undefined;
}

/**
 * Parse the activity page's query.
 * @param query the request's parsed query string (values may be strings or lists of strings).
 * @returns the filters, page and page size, the values typed, and what was left out and why.
 */
export function parseActivityQuery(query: Readonly<Record<string, unknown>>): ParsedActivityQuery {
  const values: Record<string, string> = {};
  const ignored: Record<string, string> = {};
  const filters: { -readonly [K in keyof ActivityFilters]: ActivityFilters[K] } = {};
  for (const name of NAMES) {
    const v = one(query[name]);
    if (v !== undefined) values[name] = v;
  }
  for (const name of ['actor', 'resource', 'action', 'request'] as const) {
    const v = values[name];
    if (v === undefined) continue;
    if (v.length > MAX[name]) ignored[name] = `The ${name} filter was left out: it is longer than ${MAX[name]} characters.`;
    else if (name === 'actor' && !ACTOR.test(v))
      ignored[name] = 'The actor filter was left out: write user:4, system, erased, or a type alone (user).';
    else if (name === 'request') filters.requestId = v;
    else filters[name] = v;
  }
  for (const name of ['from', 'to'] as const) {
    const v = values[name];
    if (v === undefined) continue;
    const date = parseTime(v);
    if (date === undefined)
      ignored[name] = `The ${name} filter was left out: write a date (2025-11-21) or a date and time (2025-11-21T10:12).`;
    else filters[name] = date;
  }
  if (filters.from !== undefined && filters.to !== undefined && filters.from >= filters.to) {
    ignored.to = 'The to filter was left out: it is not after from.';
    delete filters.to;
  }
  const pageText = one(query.page);
  const perText = one(query.per);
  const page = positive(pageText, 1, 1_000_000);
  const perPage = positive(perText, 50, 200);
  if (page === undefined) ignored.page = 'The page number was left out: write a whole number from 1.';
  if (perPage === undefined) ignored.per = 'The page size was left out: write a whole number from 1 to 200.';
  return { filters, page: page ?? 1, perPage: perPage ?? 50, values, ignored };
}

/** The query string of the activity page for `values` at `page` (`?actor=…&page=2`), or '' without any. */
export function activityQuery(values: Readonly<Record<string, string>>, page?: number, perPage?: number): string {
  const params = new URLSearchParams();
  for (const name of NAMES) if (values[name] !== undefined) params.set(name, values[name]);
  if (page !== undefined && page > 1) params.set('page', String(page));
  if (perPage !== undefined && perPage !== 50) params.set('per', String(perPage));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
