/**
 * What the back office hands the code that adds pages to it (its own
 * sections, the history pages of runtime/back-office/history/): the prefix,
 * the sections, a route maker giving the back office's middleware and access
 * rule, and a page maker rendering a view inside the back office's layout.
 */
import type { AnyRouteHandler } from '../http/handler.js';
import type { PageResult } from '../results/result.js';
import { pageOf } from '../results/result.js';
import type { FieldPlan, HttpMethod, ResultKind, RouteDefinition } from '../routing/route-table.js';
import type { AuthorizePlan } from '../routing/policy-plan.js';
import type { ViewRenderer } from '../views/view-renderer.js';
import { BACK_OFFICE_VIEWS, layoutRenderer, type LayoutData } from './page-renderer.js';
import type { SectionConfig } from './sections.js';

/** Routes and their handlers, as `ctx.addRoutes` takes them. */
export interface BackOfficeRoutes {
  readonly routes: RouteDefinition[];
  readonly handlers: Record<string, AnyRouteHandler>;
}

/** A view of a folder: `{ dir: '/abs/views/', view: 'activity' }` renders `/abs/views/activity.eta`. */
export interface ViewRef {
  /** The folder of the view (absolute). */
  readonly dir: string;
  /** The view's name in it, without `.eta`. */
  readonly view: string;
}

/** The back office as the code adding pages to it sees it. */
export interface BackOfficeKit {
  /** The URL prefix, without a trailing slash (`/admin`). */
  readonly prefix: string;
  /** The sections, in navigation order. */
  readonly sections: readonly SectionConfig[];
  /**
   * A route of the back office: its name prefixed with `backOffice.`, its
   * path with the prefix (`/activity` → `/admin/activity`), the back
   * office's middleware (session, CSRF, auth, require) and its access rule
   * (the policy action, `users.admin` by default: 403 for anyone else).
   * @param fields its input fields (path `{param}`s as `source: 'path'`, query ones as `source: 'query'`, form ones as `source: 'body'`).
   */
  route(name: string, method: HttpMethod, path: string, fields?: readonly FieldPlan[], result?: ResultKind): RouteDefinition;
  /**
   * A page in the back office's layout: `view` from its own folder, the
   * page helpers on `it` as in the app's views (`it.csrfField()`,
   * `it.error(name)`, `it.old(name)`, `it.status`, `it.can(action, row)`),
   * plus `it.prefix`. The view writes the page's content only (no `layout()`
   * call); `data.title` is the page's title.
   * @param status HTTP status, default 200.
   */
  page(view: ViewRef, data: Record<string, unknown>, status?: number): PageResult;
}

/** The kit of a back office at `prefix` with `sections`, its routes checked by `authorize`. */
export function backOfficeKit(
  prefix: string,
  sections: readonly SectionConfig[],
  authorize: AuthorizePlan,
  middleware: readonly string[],
  cache: boolean,
): BackOfficeKit {
  const layout: LayoutData = {
    prefix,
    nav: sections.map((s) => ({ label: s.label, href: `${prefix}/${s.path}` })),
    stylesheet: `${prefix}/back-office.css`,
  };
  const renderers = new Map<string, ViewRenderer>();
  const rendererOf = (dir: string): ViewRenderer => {
    let renderer = renderers.get(dir);
    if (renderer === undefined) renderers.set(dir, (renderer = layoutRenderer(dir, layout, cache)));
    return renderer;
  };
  return {
    prefix,
    sections,
    route(name, method, path, fields = [], result) {
      return {
        name: `backOffice.${name}`,
        method,
        path: `${prefix}${path}`,
        group: null,
        middleware,
        result: result ?? (method === 'GET' ? 'page' : 'redirect'),
        fields,
        validate: null,
        output: null,
        origin: 'backOffice()',
        authorize,
      };
    },
    page(view, data, status = 200) {
      return pageOf(rendererOf(view.dir), view.view, data, status);
    },
  };
}

/** A view of the back office's own folder. */
export function ownView(view: string): ViewRef {
  return { dir: BACK_OFFICE_VIEWS, view };
}

/** A path field (`{id}`) bound as text. */
export function pathField(name: string): FieldPlan {
  return { key: name, type: { kind: 'string', array: false, nullable: false }, source: 'path', name, rules: [] };
}

/** A query field bound as text (a list when `array`). */
export function queryField(name: string, array = false): FieldPlan {
  return { key: name, type: { kind: 'string', array, nullable: false }, source: 'query', name, rules: [] };
}
