/**
 * A section's create and edit forms and their posts (docs/back-office.md
 * "Forms"): the form shows the editable fields (the failed post's values
 * and errors when it comes back); the post is read by the resource's route
 * rules (form-input.ts) and written through the tracked model as the
 * signed-in person, `via_kind` `admin`. A failed post goes back to its form
 * with the errors and every value typed (303), whatever the Referer.
 */
import type { AnyRouteHandler } from '../../http/handler.js';
import type { RequestContext } from '../../http/context.js';
import { databaseErrorOf } from '../../db/database-errors.js';
// The session on the request context (its type), which form-round-trip.ts reads.
import '../../session/context.js';
import { oldInput } from '../../session/form-round-trip.js';
import type { Session } from '../../session/session.js';
import { redirect } from '../../results/result.js';
import type { RouteDefinition } from '../../routing/route-table.js';
import { formReader, type FormReader } from '../form-input.js';
import { ownView, type BackOfficeKit } from '../kit.js';
import { mayDo } from '../row-access.js';
import { creatable } from './list.js';
import { boxValue, isDeleted, loadRow, missing, type Row } from '../rows.js';
import { formFields, type SectionConfig } from '../sections.js';
import { asAdmin, modelOf } from '../writes.js';
import { wordsOf } from '../words.js';
import { HttpError } from '../../errors/http-error.js';

/** The routes of the app, known once the boot has checked them. */
export interface RouteTableRef {
  readonly current: readonly RouteDefinition[];
}

function sessionOf(ctx: RequestContext): Session {
  return (ctx as unknown as { session: Session }).session;
}

/** A unique violation as a field error on the form field its constraint names, else undefined. */
function uniqueError(section: SectionConfig, error: unknown): Record<string, string> | undefined {
  const info = databaseErrorOf(error);
  if (info?.kind !== 'unique-violation') return undefined;
  const constraint = info.constraint ?? '';
  const field = formFields(section).find((f) => constraint.includes(f.name)) ?? formFields(section)[0];
  return field === undefined ? undefined : { [field.name]: `The ${field.label} has already been taken.` };
}

/** The form page: the fields with their current values (or the failed post's, which the page helpers give). */
function formPage(
  kit: BackOfficeKit,
  section: SectionConfig,
  mode: 'create' | 'update',
  action: string,
  row: Row | undefined,
  id?: string,
) {
  const fields = formFields(section).map((f) => ({ ...f, current: row === undefined ? '' : boxValue(f, row[f.name]) }));
  return kit.page(ownView('form'), {
    title: mode === 'create' ? `New ${section.label}` : `Edit ${section.label} ${id}`,
    section,
    base: `${kit.prefix}/${section.path}`,
    mode,
    action,
    fields,
    id,
  });
}

/** The form handlers of `section`. */
export function formHandlers(kit: BackOfficeKit, section: SectionConfig, table: RouteTableRef) {
  const base = `${kit.prefix}/${section.path}`;
  const readers = new Map<'create' | 'update', FormReader>();
  const readerOf = (mode: 'create' | 'update'): FormReader => {
    let reader = readers.get(mode);
    if (reader === undefined) {
      const name = mode === 'create' ? section.routes.create : section.routes.update;
      readers.set(
        mode,
        (reader = formReader(
          section,
          mode,
          table.current.find((r) => r.name === name),
        )),
      );
    }
    return reader;
  };
  // A failed post: errors and old input flashed for the form, which it goes back to.
  const back = (ctx: RequestContext, to: string, errors: Record<string, string>) => {
    sessionOf(ctx).flashFormFailure(errors, oldInput(ctx.request));
    return redirect(to);
  };
  const refuse = (action: string) => new HttpError('BINDERY_POLICY_DENIED', `You may not do ${section.label}.${action}.`);

  // A section whose new rows need a column the forms do not edit (a file) has no create form.
  const notCreatable = () => new HttpError('BINDERY_NOT_FOUND', `${section.label}: rows are not created here.`);

  const newForm: AnyRouteHandler = async (_input, ctx) => {
    if (!creatable(section)) throw notCreatable();
    if (!(await mayDo(ctx, section, 'create'))) throw refuse('create');
    return formPage(kit, section, 'create', base, undefined);
  };

  const create: AnyRouteHandler = async (_input, ctx) => {
    if (!creatable(section)) throw notCreatable();
    if (!(await mayDo(ctx, section, 'create'))) throw refuse('create');
    const read = readerOf('create').read(ctx.request);
    if (!read.ok) return back(ctx, `${base}/new`, read.errors);
    let made: Row;
    try {
      made = (await asAdmin(section, 'create', () => modelOf(ctx, section).create(read.values))) as Row;
    } catch (error) {
      const taken = uniqueError(section, error);
      if (taken === undefined) throw error;
      return back(ctx, `${base}/new`, taken);
    }
    const id = String(made[section.primaryKey]);
    sessionOf(ctx).flash('status', wordsOf(ctx)('backoffice.flash.created', { section: section.label, id }));
    return redirect(`${base}/${encodeURIComponent(id)}`);
  };

  const editForm: AnyRouteHandler = async (input: { id: string }, ctx) => {
    const row = await loadRow(ctx, section, input.id, 'update');
    if (isDeleted(section, row)) throw missing(section, input.id);
    return formPage(kit, section, 'update', `${base}/${encodeURIComponent(input.id)}`, row, input.id);
  };

  const update: AnyRouteHandler = async (input: { id: string }, ctx) => {
    const row = await loadRow(ctx, section, input.id, 'update');
    if (isDeleted(section, row)) throw missing(section, input.id);
    const edit = `${base}/${encodeURIComponent(input.id)}/edit`;
    const read = readerOf('update').read(ctx.request);
    if (!read.ok) return back(ctx, edit, read.errors);
    try {
      const key = row[section.primaryKey] as never;
      const done = await asAdmin(section, 'update', () => modelOf(ctx, section).update(key, read.values));
      if (done === undefined) throw missing(section, input.id);
    } catch (error) {
      const taken = uniqueError(section, error);
      if (taken === undefined) throw error;
      return back(ctx, edit, taken);
    }
    sessionOf(ctx).flash('status', wordsOf(ctx)('backoffice.flash.saved', { section: section.label, id: input.id }));
    return redirect(`${base}/${encodeURIComponent(input.id)}`);
  };

  return { newForm, create, editForm, update };
}
