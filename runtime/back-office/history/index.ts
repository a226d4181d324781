/**
 * The back office's history pages (docs/back-office.md "History and
 * revert"): a row's timeline, the activity of everyone, and the confirm
 * page of each revert. This folder is theirs alone; the rest of the back
 * office calls {@link historyRoutes} once, at boot, and mounts what it returns.
 *
 * The contract with the rest of the back office (runtime/back-office/):
 *
 * - `historyRoutes(kit: BackOfficeKit): BackOfficeRoutes` is called by the
 *   `backOffice()` step (back-office-step.ts) after the sections' routes are
 *   made; it returns `{ routes: RouteDefinition[], handlers: Record<string,
 *   AnyRouteHandler> }`, added to the app as they are (`ctx.addRoutes`).
 * - Each route is made with `kit.route(name, method, path, fields?, result?)`
 *   (kit.ts): the name becomes `backOffice.<name>` (here `history.<what>`,
 *   so the names never meet a section's), the path gets the prefix, and the
 *   route gets the back office's middleware (session, CSRF, auth, require)
 *   and access rule (`users.admin` unless `backOffice({ authorize })` says
 *   otherwise: 403 for anyone else).
 * - Pages render with `kit.page({ dir, view }, data, status?)`: the views of
 *   ./views/ write the content only; the back office's layout wraps it.
 * - URLs the rest of the back office links to: `<prefix>/activity` (the
 *   layout's navigation) and `<prefix>/<section.path>/<id>/history` (each
 *   show page).
 *
 * The pages (every one GET, admins only):
 *
 * | Route | Page |
 * |---|---|
 * | `<prefix>/<section>/<id>/history` | the row's timeline, deleted rows too; `?cursor=` pages on |
 * | `<prefix>/activity` | every entry, filtered by `actor`, `resource`, `action`, `request`, `from`, `to`; `?page=`, `?per=` |
 * | `<prefix>/audit/<entry>/revert` | the confirm page of an entry's revert |
 * | `<prefix>/audit/bulk/<bulk>/revert` | of a bulk write's, as one unit |
 * | `<prefix>/audit/requests/<requestId>/revert` | of a request's ("undo what this form did") |
 *
 * A confirm page tries the revert and rolls it back (dry-run.ts), then shows
 * the form, the three-way difference with a checkbox `confirm` per field, or
 * why it cannot be; its form posts to the app's revert routes
 * (`backOffice.revertEntry`, `backOffice.revertBulk`,
 * `backOffice.revertRequest`: schema/back-office.yaml), which revert and come
 * back to the page with a status message. Without those routes the pages
 * still show the history, and the confirm pages say that reverts are not
 * set up.
 */
import { fileURLToPath } from 'node:url';
import type { AuditLog } from '../../audit/audit-log.js';
import { policyAuthorizer, type PolicyRequest } from '../../audit/index.js';
import type { AnyKysely } from '../../db/any-kysely.js';
import { NotFoundError } from '../../errors/index.js';
import type { RequestContext } from '../../http/context.js';
import type { RouteDefinition } from '../../routing/route-table.js';
import type { BackOfficeKit, BackOfficeRoutes } from '../kit.js';
import { pathField, queryField } from '../kit.js';
import type { SectionConfig } from '../sections.js';
import { withEnglishFallback } from '../words.js';
import type { RevertTarget } from './dry-run.js';
import { activityData, confirmData, timelineData } from './pages.js';
import type { HistoryLinks } from './view-model.js';

const VIEWS = fileURLToPath(new URL('./views/', import.meta.url));
const view = (name: string) => ({ dir: VIEWS, view: name });

const ACTIVITY_FIELDS = ['actor', 'resource', 'action', 'request', 'from', 'to', 'page', 'per'].map((n) => queryField(n));

/** The app's revert route of each kind (schema/back-office.yaml), and its path parameter. */
const REVERT_ROUTES = {
  entry: ['backOffice.revertEntry', 'entry'],
  bulk: ['backOffice.revertBulk', 'bulk'],
  request: ['backOffice.revertRequest', 'requestId'],
} as const;

function services(ctx: RequestContext): { db: AnyKysely; audit: AuditLog } {
  const s = ctx.services as unknown as { db: AnyKysely; audit?: AuditLog };
  if (s.audit === undefined) throw new NotFoundError('The history pages need the audit log (audit() in the setup list).');
  return { db: s.db, audit: s.audit };
}

/** The URL the confirm form posts to, or undefined when the app has no such route. */
function revertAction(ctx: RequestContext, target: RevertTarget): string | undefined {
  const [route, param] = REVERT_ROUTES[target.kind];
  try {
    return ctx.url(route, { [param]: target.id });
  } catch {
    return undefined;
  }
}

/**
 * The history pages' routes and handlers, mounted under the back office's
 * prefix (see the module's comment for the contract and the pages).
 * @returns the routes (all GET pages) and their handlers by route name.
 */
export function historyRoutes(kit: BackOfficeKit): BackOfficeRoutes {
  // An entry links to its row's history: its section's, or a tracked table's.
  const linksOf = (audit: AuditLog): HistoryLinks => ({
    prefix: kit.prefix,
    sectionOf: (table) =>
      kit.sections.find((s) => s.table === table)?.path ?? ([...audit.models.values()].some((m) => m.table === table) ? table : undefined),
  });
  const routes: RouteDefinition[] = [];
  const handlers: BackOfficeRoutes['handlers'] = {};
  const add = (route: RouteDefinition, handler: BackOfficeRoutes['handlers'][string]) => {
    routes.push(route);
    handlers[route.name] = handler;
  };

  const timeline =
    (fixed: SectionConfig | undefined) => async (input: { resource?: string; id: string; cursor?: string }, ctx: RequestContext) => {
      const { db, audit } = services(ctx);
      const links = linksOf(audit);
      const name = input.resource ?? '';
      const section = fixed ?? kit.sections.find((s) => s.path === name);
      const model = section === undefined ? [...audit.models.values()].find((m) => m.table === name) : undefined;
      if (section === undefined && model === undefined)
        throw new NotFoundError(`No section or tracked table is named ${JSON.stringify(name)}.`);
      const row =
        section !== undefined
          ? { resource: section.resource, label: section.label, table: section.table, pk: section.primaryKey }
          : { resource: model!.config.resource, label: model!.config.resource, table: model!.table, pk: String(model!.primaryKey) };
      const exists = await rowExists(db, row.table, row.pk, input.id);
      const data = await timelineData(
        db,
        audit,
        links,
        {
          ...row,
          id: input.id,
          showHref: exists && section !== undefined ? `${kit.prefix}/${section.path}/${encodeURIComponent(input.id)}` : undefined,
          gone: !exists,
        },
        input.cursor,
        withEnglishFallback((key, values) => ctx.t(key, values)),
      );
      return kit.page(view('timeline'), data);
    };
  // Each section's rows, then any other tracked table's (by its table name).
  for (const section of kit.sections)
    add(
      kit.route(`history.${section.resource}`, 'GET', `/${section.path}/{id}/history`, [pathField('id'), queryField('cursor')]),
      timeline(section),
    );
  add(
    kit.route('history.row', 'GET', '/{resource}/{id}/history', [pathField('resource'), pathField('id'), queryField('cursor')]),
    timeline(undefined),
  );

  add(kit.route('history.activity', 'GET', '/activity', ACTIVITY_FIELDS), async (input: Record<string, unknown>, ctx: RequestContext) => {
    const { db, audit } = services(ctx);
    const links = linksOf(audit);
    return kit.page(view('activity'), await activityData(db, audit, links, input));
  });

  const confirmPage = (kind: RevertTarget['kind'], param: string) => async (input: Record<string, unknown>, ctx: RequestContext) => {
    const { db, audit } = services(ctx);
    const links = linksOf(audit);
    const target = { kind, id: String(input[param]) } as RevertTarget;
    const t = withEnglishFallback((key, values) => ctx.t(key, values));
    const confirmed = ([] as unknown[]).concat(input.confirm ?? []).map(String);
    const action = revertAction(ctx, target);
    const page = await confirmData(db, audit, links, target, action ?? '', policyAuthorizer(ctx as unknown as PolicyRequest), confirmed, t);
    if (page === undefined) throw new NotFoundError(`No audit entry to revert: ${kind} ${target.id}.`);
    if (action === undefined)
      return kit.page(view('confirm'), { ...page.data, outcome: 'refused', message: t('backoffice.history.not_set_up'), reasons: [] });
    return kit.page(view('confirm'), page.data, page.status);
  };
  const confirmFields = (param: string) => [pathField(param), queryField('confirm', true)];
  add(kit.route('history.revertEntry', 'GET', '/audit/{entry}/revert', confirmFields('entry')), confirmPage('entry', 'entry'));
  add(kit.route('history.revertBulk', 'GET', '/audit/bulk/{bulk}/revert', confirmFields('bulk')), confirmPage('bulk', 'bulk'));
  add(
    kit.route('history.revertRequest', 'GET', '/audit/requests/{requestId}/revert', confirmFields('requestId')),
    confirmPage('request', 'requestId'),
  );
  return { routes, handlers };
}

/** Whether the row exists (soft-deleted rows too: the timeline links to it). */
async function rowExists(db: AnyKysely, table: string, pk: string, id: string): Promise<boolean> {
  try {
    return (await db.selectFrom(table).select(pk).where(pk, '=', id).executeTakeFirst()) !== undefined;
  } catch {
    return false;
  }
}
