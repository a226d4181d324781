/**
 * The back office's history pages (docs/back-office.md "History and
 * revert"): a row's timeline, the activity of everyone, one entry, and the
 * revert forms. This folder is theirs alone; the rest of the back office
 * calls {@link historyRoutes} once, at boot, and mounts what it returns.
 *
 * The contract with the rest of the back office (runtime/back-office/):
 *
 * - `historyRoutes(kit: BackOfficeKit): BackOfficeRoutes` is called by the
 *   `backOffice()` step (back-office-step.ts) after the sections' routes are
 *   made; it returns `{ routes: RouteDefinition[], handlers: Record<string,
 *   AnyRouteHandler> }`, added to the app as they are (`ctx.addRoutes`).
 * - Make each route with `kit.route(name, method, path, fields?, result?)`
 *   (kit.ts): the name becomes `backOffice.<name>` (use `history.<what>`,
 *   e.g. `history.activity`, so the names never meet a section's), the path
 *   gets the prefix (`kit.route('history.activity', 'GET', '/activity')` →
 *   `GET /admin/activity`), and the route gets the back office's middleware
 *   (session, CSRF, auth, require) and access rule (`users.admin` unless
 *   `backOffice({ authorize })` says otherwise: 403 for anyone else). Path
 *   parameters are fields with `source: 'path'` (`pathField('id')` of
 *   kit.ts); a handler's input has them by key. POST routes are CSRF-checked
 *   by the middleware; forms carry `<%~ it.csrfField() %>`.
 * - Render a page with `kit.page({ dir, view }, data, status?)`: `dir` the
 *   absolute folder of your views (e.g.
 *   `fileURLToPath(new URL('./views/', import.meta.url))`), `view` the
 *   template's name without `.eta`. The view writes the content only (no
 *   `layout()`); the back office's layout wraps it (navigation, status
 *   message, errors summary, stylesheet) and `data.title` is the page's
 *   title. `it` has the app's page helpers (`it.csrfField()`, `it.status`,
 *   `it.error(name)`, `it.old(name)`, `it.can(action, row)`) and `it.prefix`.
 * - URLs the rest of the back office links to: `<prefix>/activity` (the
 *   layout's navigation) and `<prefix>/<section.path>/<id>/history` (each
 *   show page). `kit.sections` lists the sections (`resource`, `table`,
 *   `path`, `label`, `primaryKey`, `policy`, `fields`; sections.ts); the
 *   tracked model of one is `ctx.services.models[section.resource]`, the
 *   audit log `ctx.services.audit`.
 */
import type { BackOfficeKit, BackOfficeRoutes } from '../kit.js';

/**
 * The history pages' routes and handlers, mounted under the back office's
 * prefix (see the module's comment for the contract).
 * @returns routes (none yet) and their handlers by route name.
 */
export function historyRoutes(_kit: BackOfficeKit): BackOfficeRoutes {
  return { routes: [], handlers: {} };
}
