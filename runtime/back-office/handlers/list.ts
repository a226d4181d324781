/**
 * A section's list page (docs/back-office.md "The list"): the rows the
 * policy lets the signed-in person view, sorted, filtered, searched, one
 * page at a time with the total; soft-deleted rows behind the toggle; a
 * checkbox per row for the bulk delete and restore.
 */
import type { AnyRouteHandler } from '../../http/handler.js';
import { ownView, type BackOfficeKit } from '../kit.js';
import { listQueryString, parseListParams, runSectionList } from '../list-query.js';
import { databaseOf, mayDo, scopeOf } from '../row-access.js';
import { isDeleted, shown } from '../rows.js';
import { fieldOf, type SectionConfig } from '../sections.js';

/** The handler of `GET <prefix>/<section>`. */
export function listHandler(kit: BackOfficeKit, section: SectionConfig): AnyRouteHandler {
  const base = `${kit.prefix}/${section.path}`;
  const columns = section.list.map((name) => ({ name, label: fieldOf(section, name)?.label ?? name }));
  return async (_input, ctx) => {
    const params = parseListParams(section, ctx.request.query as Record<string, unknown>);
    const result = await runSectionList(databaseOf(ctx), section, params, await scopeOf(ctx, section, 'view'));
    const rows = result.rows.map((row) => ({
      id: String(row[section.primaryKey]),
      href: `${base}/${encodeURIComponent(String(row[section.primaryKey]))}`,
      deleted: isDeleted(section, row),
      cells: section.list.map((name) => shown(fieldOf(section, name), row[name])),
    }));
    const filters = section.filters.map((name) => {
      const field = fieldOf(section, name)!;
      return { name, label: field.label, type: field.type, values: field.values ?? [], value: params.filters[name] ?? '' };
    });
    return kit.page(ownView('list'), {
      title: section.label,
      section,
      base,
      columns,
      rows,
      filters,
      params,
      total: result.total,
      page: result.page,
      pages: result.pages,
      sortLink: (name: string) =>
        `${base}?${listQueryString(params, { sort: name, dir: params.sort === name && params.dir === 'asc' ? 'desc' : 'asc', page: 1 })}`,
      pageLink: (page: number) => `${base}?${listQueryString(params, { page })}`,
      trashedLink: (trashed: 'live' | 'with' | 'only') => `${base}?${listQueryString(params, { trashed, page: 1 })}`,
      mayCreate: creatable(section) && (await mayDo(ctx, section, 'create')),
    });
  };
}

/** Can the create form fill every column a new row needs (no read-only column without a default)? */
export function creatable(section: SectionConfig): boolean {
  return section.fields.every((f) => !f.readOnly || f.nullable || f.hasDefault);
}
