/**
 * A section's show page (docs/back-office.md "The show page"): every field
 * of the row, references linked to their section's row, the rows of other
 * sections referring to it linked to their filtered list, the actions the
 * policy allows (edit, delete, restore, force delete) and the link to the
 * row's history.
 */
import type { AnyRouteHandler } from '../../http/handler.js';
import { ownView, type BackOfficeKit } from '../kit.js';
import { mayDo } from '../row-access.js';
import { isDeleted, loadRow, shown } from '../rows.js';
import type { SectionConfig } from '../sections.js';

/** The handler of `GET <prefix>/<section>/{id}`. */
export function showHandler(kit: BackOfficeKit, section: SectionConfig): AnyRouteHandler {
  const base = `${kit.prefix}/${section.path}`;
  const pathOf = new Map(kit.sections.map((s) => [s.resource, s.path]));
  return async (input: { id: string }, ctx) => {
    const row = await loadRow(ctx, section, input.id);
    const deleted = isDeleted(section, row);
    const fields = section.fields.map((f) => {
      const value = row[f.name];
      const target = f.references?.section === undefined ? undefined : pathOf.get(f.references.section);
      return {
        label: f.label,
        text: shown(f, value),
        href:
          target === undefined || value === null || value === undefined
            ? undefined
            : `${kit.prefix}/${target}/${encodeURIComponent(String(value))}`,
      };
    });
    const id = String(row[section.primaryKey]);
    const href = `${base}/${encodeURIComponent(id)}`;
    // The rows of other sections that refer to this one (has-many), by their list's filter.
    const related = kit.sections.flatMap((other) =>
      other.fields
        .filter(
          (f) => f.references?.table === section.table && f.references.column === section.primaryKey && other.filters.includes(f.name),
        )
        .map((f) => ({
          label: `${other.label} (${f.label})`,
          href: `${kit.prefix}/${other.path}?${new URLSearchParams({ [`filter[${f.name}]`]: id, trashed: 'with' })}`,
        })),
    );
    return kit.page(ownView('show'), {
      title: `${section.label} ${id}`,
      section,
      base,
      id,
      href,
      deleted,
      fields,
      history: `${href}/history`,
      related,
      may: {
        edit: !deleted && section.fields.some((f) => !f.readOnly) && (await mayDo(ctx, section, 'update', row)),
        delete: !deleted && (await mayDo(ctx, section, 'delete', row)),
        restore: deleted && (await mayDo(ctx, section, 'restore', row)),
        forceDelete: await mayDo(ctx, section, 'forceDelete', row),
      },
    });
  };
}
