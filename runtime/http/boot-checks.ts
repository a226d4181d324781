/**
 * Boot checks of the route table against the handlers and middleware given
 * to `createHttpServer` (docs/spec.md 4.5 "At startup … rejected, so the mistake
 * shows before the first request"; docs/spec.md 7 rule 9).
 */
import type { RouteDefinition } from '../routing/route-table.js';
import { routeOrigin } from '../routing/route-origin.js';
import { BinderyError } from '../errors/bindery-error.js';
import type { ErrorCode } from '../errors/codes.js';
import { closest } from '../support/closest.js';
import { HEALTH_PATHS } from './health.js';
import { pathParams } from './route-paths.js';
import type { HttpServerOptions } from './server-options.js';

const METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Problems found at boot; thrown together as one {@link BinderyError}. */
export class BootProblems {
  readonly #items: Array<{ code: ErrorCode; message: string }> = [];

  add(code: ErrorCode, message: string): void {
    this.#items.push({ code, message });
  }

  /** Run `fn`, recording a thrown {@link BinderyError} instead of throwing. */
  capture<T>(fn: () => T): T | undefined {
    try {
      return fn();
    } catch (err) {
      if (!(err instanceof BinderyError)) throw err;
      this.add(err.code, err.message);
      return undefined;
    }
  }

  /**
   * @throws {BinderyError} with the code of the first problem and every problem on its own line.
   */
  throwIfAny(): void {
    if (this.#items.length === 0) return;
    const first = this.#items[0]!;
    const message =
      this.#items.length === 1
        ? first.message
        : `The HTTP server cannot start (${this.#items.length} problems):\n${this.#items.map((p) => `  - [${p.code}] ${p.message}`).join('\n')}`;
    throw new BinderyError(first.code, message);
  }
}

/**
 * Check the route table, handlers and middleware, recording every problem in `problems`:
 * duplicate names or method+path, bad methods or paths, reserved health paths,
 * path parameters without a path field (and path fields not in the path),
 * routes without a handler, handlers without a route, middleware names not
 * provided, page routes without a views folder.
 */
export function checkRouteTable(options: HttpServerOptions, problems: BootProblems): void {
  const names = new Set<string>();
  const endpoints = new Map<string, RouteDefinition>();
  const middleware = options.middleware ?? {};
  for (const route of options.routes) {
    // Where the route was declared, read from its schema file only for a message (never on the happy path).
    const at = () => `${routeOrigin(route)}: route "${route.name}"`;
    if (names.has(route.name))
      problems.add('BINDERY_ROUTE_INVALID', `${at()}: the name is used by another route; route names must be unique.`);
    names.add(route.name);
    if (!METHODS.has(route.method))
      problems.add('BINDERY_ROUTE_INVALID', `${at()}: unknown method "${String(route.method)}" (expected ${[...METHODS].join(', ')}).`);
    if (!route.path.startsWith('/')) problems.add('BINDERY_ROUTE_INVALID', `${at()}: the path "${route.path}" must start with "/".`);
    if (HEALTH_PATHS.includes(route.path))
      problems.add('BINDERY_ROUTE_INVALID', `${at()}: the path ${route.path} is reserved for the health endpoint.`);
    const endpoint = `${route.method} ${route.path.replace(/\{[^}]+\}/g, '{}')}`;
    const other = endpoints.get(endpoint);
    if (other !== undefined)
      problems.add(
        'BINDERY_ROUTE_INVALID',
        `${at()}: ${route.method} ${route.path} is already served by route "${other.name}" (${routeOrigin(other)}).`,
      );
    else endpoints.set(endpoint, route);
    const params = pathParams(route.path);
    for (const param of params) {
      if (!route.fields.some((f) => f.source === 'path' && f.name === param)) {
        problems.add('BINDERY_ROUTE_INVALID', `${at()}: the path parameter {${param}} has no input field with "path: ${param}".`);
      }
    }
    for (const field of route.fields) {
      if (field.source === 'path' && field.name !== undefined && !params.includes(field.name)) {
        problems.add(
          'BINDERY_ROUTE_INVALID',
          `${at()}: field "${field.key}" binds the path parameter "${field.name}", which is not in the path ${route.path}.`,
        );
      }
    }
    const handler = options.handlers[route.name];
    if (handler === undefined) {
      problems.add(
        'BINDERY_ROUTE_WITHOUT_HANDLER',
        `${at()} has no handler; add a handler named "${route.name}" to the handlers given to createHttpServer.`,
      );
    } else if (typeof handler !== 'function' && (typeof handler !== 'object' || handler === null || typeof handler.handle !== 'function')) {
      problems.add('BINDERY_ROUTE_WITHOUT_HANDLER', `${at()}: its handler is neither a function nor an object with a handle function.`);
    }
    for (const name of route.middleware) {
      const m = middleware[name];
      if (typeof m !== 'function' && (typeof m !== 'object' || m === null || typeof m.before !== 'function')) {
        const hint = closest(
          name,
          Object.keys(middleware).filter((n) => n !== name),
        );
        problems.add(
          'BINDERY_MIDDLEWARE_MISSING',
          `${at()} uses the middleware "${name}"${route.group === null ? '' : ` (group "${route.group}")`}, which was not provided${hint === undefined ? '' : ` (did you mean "${hint}"?)`}.`,
        );
      }
    }
    if (route.result === 'page' && options.viewsDir === undefined) {
      problems.add('BINDERY_VIEWS_NOT_CONFIGURED', `${at()} renders a page, but no views folder was given (viewsDir).`);
    }
  }
  for (const name of Object.keys(options.handlers)) {
    if (!names.has(name)) {
      const hint = closest(name, [...names]);
      problems.add(
        'BINDERY_HANDLER_WITHOUT_ROUTE',
        `A handler is named "${name}" but no route has that name${hint === undefined ? '' : ` (did you mean "${hint}"?)`}.`,
      );
    }
  }
}
