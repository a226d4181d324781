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
import type { RouteDefinition } from '../routing/route-table.js';
import type { BackOfficeKit, BackOfficeRoutes } from './kit.js';
import type { SectionConfig } from './sections.js';

/** The routes of `section`; `routeTable.current` is the app's whole route table once the boot has checked it. */
export function sectionRoutes(
  _kit: BackOfficeKit,
  _section: SectionConfig,
  _routeTable: { readonly current: readonly RouteDefinition[] },
): BackOfficeRoutes {
  return { routes: [], handlers: {} };
}
