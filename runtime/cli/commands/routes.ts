/**
 * `bindery routes` (docs/cli.md "routes"): the routes of the app's route
 * table and of its plugins (at their mounts), with what guards each one —
 * read from the app module, without booting it.
 */
import { Command, Option } from 'clipanion';
import { BinderyCommand } from '../../app/base-command.js';
import { DEFAULT_APP_MODULE, loadApp } from '../../app/load-app.js';
import type { App } from '../../app/app-contract.js';
import { isPluginStep, PLUGIN_STEP } from '../../plugins/plugin-step.js';
import type { HttpMethod, RouteDefinition } from '../../routing/route-table.js';
import { formatTable } from '../../support/format-table.js';

/** One line of the listing (also the shape of each element of `--json`). */
export interface RouteListing {
  readonly method: HttpMethod;
  /** The path template, `{param}` for a parameter (`/notes/{id}`). */
  readonly path: string;
  /** The route name (the key of its handler), e.g. `notes.update`. */
  readonly name: string;
  /** The YAML group, or null. */
  readonly group: string | null;
  /** The middleware the route runs, in order (`session`, `csrf`, `auth`, `require`, `token`…). */
  readonly middleware: readonly string[];
  /** The abilities a bearer token needs (docs/tokens.md). */
  readonly abilities: readonly string[];
  /** The policy action checked (docs/authorization.md), as `<policy>.<action>`, or null. */
  readonly policy: string | null;
  /** Where the route comes from: its schema file, or what made it in code (`assets/app.css`, a plugin). */
  readonly origin: string;
}

const METHOD_ORDER: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The listing of `routes`, sorted by path, then method (GET, POST, PUT, PATCH, DELETE, OPTIONS).
 * @param routes a route table (the app's merged with its steps' and plugins').
 */
export function listRoutes(routes: readonly RouteDefinition[]): RouteListing[] {
  return routes
    .map((r) => ({
      method: r.method,
      path: r.path,
      name: r.name,
      group: r.group,
      middleware: [...r.middleware],
      abilities: [...(r.abilities ?? [])],
      policy: r.authorize === undefined ? null : `${r.authorize.policy}.${r.authorize.action}`,
      origin: r.origin,
    }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method)));
}

/** The app's route table, then each plugin's routes at the path its mount gives them (as the plugin's setup step adds them). */
export function appRoutes(app: App): RouteDefinition[] {
  const routes: RouteDefinition[] = [...app.routes];
  for (const step of app.setup) {
    if (!isPluginStep(step)) continue;
    const { plugin, mount } = step[PLUGIN_STEP];
    for (const route of plugin.routes?.table ?? [])
      routes.push({ ...route, path: mount + route.path.slice(plugin.name.length + 1), origin: `plugin ${plugin.name}: ${route.origin}` });
  }
  return routes;
}

/** The listing as a table (METHOD, PATH, NAME, GROUP, MIDDLEWARE, ABILITIES, POLICY; `—` for none), then the count. */
export function formatRoutes(listing: readonly RouteListing[]): string {
  if (listing.length === 0) return 'No routes.\n';
  const cell = (values: readonly string[]) => (values.length === 0 ? '—' : values.join(', '));
  const rows = listing.map((r) => [r.method, r.path, r.name, r.group ?? '—', cell(r.middleware), cell(r.abilities), r.policy ?? '—']);
  const table = formatTable(['METHOD', 'PATH', 'NAME', 'GROUP', 'MIDDLEWARE', 'ABILITIES', 'POLICY'], rows);
  return `${table}${listing.length} route${listing.length === 1 ? '' : 's'}.\n`;
}

/** `bindery routes [--json] [--app <file>]`. */
export class RoutesCommand extends BinderyCommand {
  static override paths = [['routes']];
  static override usage = Command.Usage({
    category: 'Code',
    description: 'List the routes the app serves, with the middleware, abilities and policy guarding each.',
    details: `
      One line per route, sorted by path: METHOD, PATH (\`{param}\` for a parameter), NAME (the handler's key), GROUP, MIDDLEWARE (in the order they run), ABILITIES (what a bearer token needs) and POLICY (the policy action checked, \`<policy>.<action>\`). Lists the app's route table (\`generated/routes.ts\`) and its plugins' routes at their mounts, read from the app module without booting it (no settings, no database). Routes a setup step adds in code at boot (the assets, the API reference, storage uploads, the development dashboard) are not listed.

      With \`--json\`, prints an array of \`{ method, path, name, group, middleware, abilities, policy, origin }\` instead (\`origin\`: the schema file, or the plugin and its schema file).
    `,
    examples: [
      ['List the routes', '$0 routes'],
      ['The same as JSON', '$0 routes --json'],
    ],
  });

  json = Option.Boolean('--json', false, { description: 'Print the routes as a JSON array.' });
  app = Option.String('--app', DEFAULT_APP_MODULE, { description: 'The app module (default app/main.ts).' });

  protected async run(): Promise<number> {
    const app = this.context.app ?? (await loadApp(this.root, this.app));
    const listing = listRoutes(appRoutes(app));
    this.out(this.json ? `${JSON.stringify(listing, null, 2)}\n` : formatRoutes(listing));
    return 0;
  }
}
