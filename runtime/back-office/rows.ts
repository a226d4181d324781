/**
 * One row of a section: found by its key within the policy's view, checked
 * for an action, and shown as text.
 */
import type { RequestContext } from '../http/context.js';
import { HttpError } from '../errors/http-error.js';
import { databaseOf, mayDo, scopeOf, type RowAction } from './row-access.js';
import { fieldOf, type SectionConfig, type SectionField } from './sections.js';

/** A row, by column. */
export type Row = Record<string, unknown>;

/** The key of `text` in the primary key's type, or undefined when it cannot be one. */
export function keyOf(section: SectionConfig, text: string): string | number | undefined {
  const type = fieldOf(section, section.primaryKey)?.type;
  if (type === 'integer' || type === 'bigint') return /^\d{1,18}$/.test(text) ? Number(text) : undefined;
  return text.length > 0 && text.length <= 200 ? text : undefined;
}

/** 404 for a row that does not exist or that the policy hides. */
export function missing(section: SectionConfig, id: string): HttpError {
  return new HttpError('BINDERY_NOT_FOUND', `${section.label}: no row ${id}.`);
}

/**
 * The row with key `id` the signed-in person may view (deleted ones too), checked for `action`.
 * @throws {HttpError} 404 when no such row is visible; 403 `BINDERY_POLICY_DENIED` when `action` is refused.
 */
export async function loadRow(ctx: RequestContext, section: SectionConfig, id: string, action: RowAction = 'view'): Promise<Row> {
  const key = keyOf(section, id);
  if (key === undefined) throw missing(section, id);
  const row = await databaseOf(ctx)
    .selectFrom(section.table)
    .selectAll()
    .where(await scopeOf(ctx, section, 'view'))
    .where(`${section.table}.${section.primaryKey}`, '=', key)
    .executeTakeFirst();
  if (row === undefined) throw missing(section, id);
  if (action !== 'view' && !(await mayDo(ctx, section, action, row)))
    throw new HttpError('BINDERY_POLICY_DENIED', `You may not do ${section.label}.${action} on row ${id}.`);
  return row as Row;
}

/** Is the row soft-deleted? */
export function isDeleted(section: SectionConfig, row: Row): boolean {
  return section.softDelete !== null && row[section.softDelete] !== null && row[section.softDelete] !== undefined;
}

/** A value as the pages show it: '' for null, dates as ISO 8601 UTC, files by name, JSON as text. */
export function shown(field: SectionField | undefined, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (field?.type === 'boolean') return value === true || value === 1 || value === '1' ? 'yes' : 'no';
  if (field?.type === 'file' && typeof value === 'object') {
    const f = value as { name?: unknown; size?: unknown };
    return typeof f.name === 'string' ? `${f.name}${typeof f.size === 'number' ? ` (${f.size} bytes)` : ''}` : JSON.stringify(value);
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A value as a form's box holds it: timestamps as RFC 3339 UTC (what the binder reads back), booleans as `true`/`false`. */
export function boxValue(field: SectionField, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (field.type === 'boolean') return value === true || value === 1 || value === '1' ? 'true' : 'false';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
