/**
 * The `backOffice()` setup step (docs/back-office.md; docs/boot.md "Setup
 * steps").
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SetupStep } from '../app/setup-step.js';
import { SetupError } from '../app/errors.js';
import type { RouteDefinition } from '../routing/route-table.js';
import type { RequestContext } from '../http/context.js';
import { respond } from '../results/result.js';
import { historyRoutes } from './history/index.js';
import { homeHandler, type HomeTable } from './handlers/home.js';
import { backOfficeKit, type BackOfficeRoutes } from './kit.js';
import { sectionRoutes } from './section-routes.js';
import type { SectionTable } from './sections.js';

const STYLESHEET = fileURLToPath(new URL('./back-office.css', import.meta.url));

/** Options of {@link backOffice}. */
export interface BackOfficeOptions {
  /** The sections: `sections` of `generated/back-office.ts` (default none: only the home page and the history pages). */
  readonly sections?: SectionTable;
  /** The URL prefix (default `/admin`). */
  readonly prefix?: string;
  /** The policy action every back-office route needs (default `users.admin`): anyone else gets 403. */
  readonly authorize?: string;
  /** The middleware of every back-office route (default the session, CSRF, auth and require of signed-in pages). */
  readonly middleware?: readonly string[];
  /** More tables for the home page, below the sections (the reference app's: the newest users). */
  readonly home?: (ctx: RequestContext) => Promise<readonly HomeTable[]>;
}

/**
 * The back office: server-rendered pages under `/admin` — a home page
 * listing the sections with their row counts, and per section (one per
 * resource the schema marks `backOffice:`) a list with sort, filters,
 * search, offset pages and the soft-deleted rows behind a toggle, a show
 * page, create and edit forms validated by the resource's route rules (the
 * form round trip on failure), delete, restore, force delete and bulk
 * delete and restore. Every write goes through the audit layer's tracked
 * model, attributed to the signed-in person with `via_kind` `admin`; every
 * row passes its resource's policy. Needs `auth()`, `authorization()` and
 * `audit()` before it. No script, no asset from elsewhere: the stylesheet
 * is served at `<prefix>/back-office.css`, so the default CSP holds.
 *
 * @throws {SetupError} `BINDERY_SETUP_INVALID` at boot when a section names a route the app does not have.
 * @example setup: [audit({ tracked }), …, auth({ users }), authorization({ policies }), backOffice({ sections })]
 */
export function backOffice(options: BackOfficeOptions = {}): SetupStep {
  const prefix = (options.prefix ?? '/admin').replace(/\/+$/, '');
  const action = options.authorize ?? 'users.admin';
  const dot = action.indexOf('.');
  if (dot <= 0) throw new SetupError(`backOffice(): authorize "${action}" must name a policy action (policy.action).`);
  const sections = Object.values(options.sections ?? {});
  return {
    name: 'backOffice',
    call: 'backOffice()',
    requires: [
      { name: 'audit', call: 'audit()' },
      { name: 'auth', call: 'auth()' },
      { name: 'authorization', call: 'authorization()' },
    ],
    setup(ctx) {
      const kit = backOfficeKit(
        prefix,
        sections,
        { policy: action.slice(0, dot), action: action.slice(dot + 1) },
        options.middleware ?? ['session', 'csrf', 'auth', 'require'],
        ctx.settings.APP_ENV !== 'development',
      );
      const css = readFileSync(STYLESHEET, 'utf8');
      const own: BackOfficeRoutes = { routes: [], handlers: {} };
      const add = (route: RouteDefinition, handler: BackOfficeRoutes['handlers'][string]) => {
        own.routes.push(route);
        own.handlers[route.name] = handler;
      };
      add(kit.route('home', 'GET', ''), homeHandler(kit, options.home));
      add(kit.route('stylesheet', 'GET', '/back-office.css', [], 'custom'), () =>
        respond((reply) => reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'no-cache').send(css)),
      );
      const routeTable: { current: readonly RouteDefinition[] } = { current: [] };
      for (const section of sections) {
        const made = sectionRoutes(kit, section, routeTable);
        for (const route of made.routes) add(route, made.handlers[route.name]!);
      }
      ctx.addRoutes(own.routes, own.handlers);
      const history = historyRoutes(kit);
      ctx.addRoutes(history.routes, history.handlers);
      // The sections' forms apply the rules of their resource's routes: check those exist, and keep the table.
      ctx.addRouteCheck((routes) => {
        routeTable.current = routes;
        for (const section of sections)
          for (const name of [section.routes.create, section.routes.update])
            if (name !== undefined && !routes.some((r) => r.name === name))
              throw new SetupError(
                `backOffice(): the section ${section.resource} takes its form rules from the route "${name}", which the app does not have; run "bindery generate".`,
              );
      });
    },
  };
}
