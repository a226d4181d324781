/**
 * A section's delete, restore and force delete of one row, and the bulk
 * delete and restore of the rows selected in the list (docs/back-office.md
 * "Deleting and restoring"). Each checks the row's policy (a bulk write is
 * narrowed by it: rows it refuses are left alone) and writes through the
 * tracked model as the signed-in person, `via_kind` `admin`.
 */
import type { AnyRouteHandler } from '../../http/handler.js';
import type { RequestContext } from '../../http/context.js';
import { ValidationError } from '../../errors/validation-error.js';
import { redirect } from '../../results/result.js';
import type { Session } from '../../session/session.js';
import type { MessageValues } from '../../i18n/translator.js';
import type { BackOfficeKit } from '../kit.js';
import { isDeleted, keyOf, loadRow, missing } from '../rows.js';
import type { SectionConfig } from '../sections.js';
import { asAdmin, modelOf } from '../writes.js';
import { wordsOf } from '../words.js';

/** Most rows one bulk post may name. */
export const BULK_MAX = 500;

/** Flash the status text `key` of `backoffice.flash` (docs/i18n.md), in the request's locale. */
function flash(ctx: RequestContext, key: string, values?: MessageValues): void {
  (ctx as unknown as { session: Session }).session.flash('status', wordsOf(ctx)(`backoffice.flash.${key}`, values));
}

/** The handlers of `section`'s deletes and restores. */
export function rowWriteHandlers(kit: BackOfficeKit, section: SectionConfig) {
  const base = `${kit.prefix}/${section.path}`;
  const soft = section.softDelete !== null;

  const remove: AnyRouteHandler = async (input: { id: string }, ctx) => {
    const row = await loadRow(ctx, section, input.id, 'delete');
    if (isDeleted(section, row)) throw missing(section, input.id);
    const key = row[section.primaryKey] as never;
    await asAdmin(section, 'delete', () => modelOf(ctx, section).delete(key));
    flash(ctx, 'deleted', { section: section.label, id: input.id });
    return redirect(soft ? `${base}/${encodeURIComponent(input.id)}` : base);
  };

  const restore: AnyRouteHandler = async (input: { id: string }, ctx) => {
    if (!soft) throw missing(section, input.id);
    const row = await loadRow(ctx, section, input.id, 'restore');
    if (!isDeleted(section, row)) throw missing(section, input.id);
    const key = row[section.primaryKey] as never;
    await asAdmin(section, 'restore', () => modelOf(ctx, section).restore(key));
    flash(ctx, 'restored', { section: section.label, id: input.id });
    return redirect(`${base}/${encodeURIComponent(input.id)}`);
  };

  const forceDelete: AnyRouteHandler = async (input: { id: string }, ctx) => {
    const row = await loadRow(ctx, section, input.id, 'forceDelete');
    const key = row[section.primaryKey] as never;
    await asAdmin(section, 'forceDelete', () => modelOf(ctx, section).forceDelete(key));
    flash(ctx, 'force_deleted', { section: section.label, id: input.id });
    return redirect(base);
  };

  // The list's form: action=delete|restore, ids=<key> for each row ticked; back to the list it came from.
  const bulk: AnyRouteHandler = async (_input, ctx) => {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const action = body.action;
    const raw = body.ids === undefined ? [] : Array.isArray(body.ids) ? body.ids : [body.ids];
    const back = typeof body.back === 'string' && body.back.startsWith(`${base}?`) ? body.back : base;
    if (action !== 'delete' && (action !== 'restore' || !soft))
      throw new ValidationError({ action: wordsOf(ctx)('backoffice.flash.choose_action') });
    const keys = raw.map((v) => (typeof v === 'string' ? keyOf(section, v) : undefined)).filter((k) => k !== undefined);
    if (keys.length === 0) {
      flash(ctx, 'none_selected');
      return redirect(back);
    }
    if (keys.length > BULK_MAX) throw new ValidationError({ ids: wordsOf(ctx)('backoffice.flash.too_many', { max: BULK_MAX }) });
    const query = modelOf(ctx, section)
      .query()
      .where(section.primaryKey as never, 'in', keys as never);
    const n = await asAdmin(section, `bulk-${action}`, () => (action === 'delete' ? query.delete() : query.restore()));
    flash(ctx, action === 'delete' ? 'bulk_deleted' : 'bulk_restored', { n, count: n });
    return redirect(back);
  };

  return { remove, restore, forceDelete, bulk };
}
