/**
 * The routes of one section (docs/back-office.md "What each page does"):
 *
 * | route | page or action |
 * |---|---|
 * | `GET <prefix>/<section>` | the list |
 * | `GET <prefix>/<section>/new`, `POST <prefix>/<section>` | the create form, the create |
 * | `GET <prefix>/<section>/{id}` | the show page |
 * | `GET <prefix>/<section>/{id}/edit`, `POST <prefix>/<section>/{id}` | the edit form, the update |
 * | `POST <prefix>/<section>/{id}/delete`, `…/restore`, `…/force-delete` | one row's delete, restore, force delete |
 * | `POST <prefix>/<section>/bulk` | delete or restore the selected rows |
 */
import type { AnyRouteHandler } from '../http/handler.js';
import { formHandlers, type RouteTableRef } from './handlers/form.js';
import { listHandler } from './handlers/list.js';
import { rowWriteHandlers } from './handlers/row-writes.js';
import { showHandler } from './handlers/show.js';
import { pathField, type BackOfficeKit, type BackOfficeRoutes } from './kit.js';
import type { SectionConfig } from './sections.js';

/** The routes of `section`; `routeTable.current` is the app's whole route table once the boot has checked it. */
export function sectionRoutes(kit: BackOfficeKit, section: SectionConfig, routeTable: RouteTableRef): BackOfficeRoutes {
  const out: BackOfficeRoutes = { routes: [], handlers: {} };
  const p = `/${section.path}`;
  const id = [pathField('id')];
  const add = (name: string, method: 'GET' | 'POST', path: string, handler: AnyRouteHandler, withId = false) => {
    const route = kit.route(`${section.path}.${name}`, method, path, withId ? id : []);
    out.routes.push(route);
    out.handlers[route.name] = handler;
  };
  const forms = formHandlers(kit, section, routeTable);
  const writes = rowWriteHandlers(kit, section);
  add('list', 'GET', p, listHandler(kit, section));
  add('new', 'GET', `${p}/new`, forms.newForm);
  add('create', 'POST', p, forms.create);
  add('bulk', 'POST', `${p}/bulk`, writes.bulk);
  add('show', 'GET', `${p}/{id}`, showHandler(kit, section), true);
  add('edit', 'GET', `${p}/{id}/edit`, forms.editForm, true);
  add('update', 'POST', `${p}/{id}`, forms.update, true);
  add('delete', 'POST', `${p}/{id}/delete`, writes.remove, true);
  if (section.softDelete !== null) add('restore', 'POST', `${p}/{id}/restore`, writes.restore, true);
  add('forceDelete', 'POST', `${p}/{id}/force-delete`, writes.forceDelete, true);
  return out;
}
