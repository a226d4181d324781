/**
 * URLs of named routes: `ctx.url(...)` and `redirectToRoute(...)` (docs/spec.md 4.5, redirect results).
 */
import type { RouteTable } from '../routing/route-table.js';
import { BinderyError } from '../errors/bindery-error.js';
import { closest } from '../support/closest.js';

/** A literal piece of the path (`param` null) or a wildcard (`param` its name, `text` empty): one shape for both. */
interface Part {
  readonly text: string;
  readonly param: string | null;
}

/** A route's path cut at its wildcards, and how many distinct parameters it names. */
interface SplitPath {
  readonly parts: readonly Part[];
  readonly names: number;
}

/** Builds URL paths of the routes of a table; route paths are split once, at construction. */
export class UrlBuilder {
  readonly #routes = new Map<string, SplitPath>();

  constructor(routes: RouteTable) {
    for (const route of routes) {
      const parts: Part[] = [];
      const re = /\{([^}]+)\}/g;
      let last = 0;
      for (let m = re.exec(route.path); m !== null; m = re.exec(route.path)) {
        if (m.index > last) parts.push({ text: route.path.slice(last, m.index), param: null });
        parts.push({ text: '', param: m[1]! });
        last = m.index + m[0].length;
      }
      if (last < route.path.length) parts.push({ text: route.path.slice(last), param: null });
      this.#routes.set(route.name, { parts, names: new Set(parts.flatMap((p) => (p.param === null ? [] : [p.param]))).size });
    }
  }

  /**
   * The path of route `name` with its `{param}` wildcards filled from
   * `params` (values URL-encoded); params that are not in the path become
   * the query string, in the order given.
   * @throws {BinderyError} `BINDERY_UNKNOWN_ROUTE` when no route has that name, or a path parameter is missing or empty.
   * @example urls.build('notes.show', { id: 7 }) // "/notes/7"
   */
  build(name: string, params: Readonly<Record<string, string | number>> = {}): string {
    const split = this.#routes.get(name);
    if (split === undefined) {
      const hint = closest(name, [...this.#routes.keys()]);
      throw new BinderyError(
        'BINDERY_UNKNOWN_ROUTE',
        `No route is named "${name}"${hint === undefined ? '' : ` (did you mean "${hint}"?)`}; use a route name from schema/*.yaml.`,
      );
    }
    const { parts, names } = split;
    let path = '';
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (part.param === null) {
        path += part.text;
        continue;
      }
      const value = params[part.param];
      if (value === undefined || value === '') {
        throw new BinderyError(
          'BINDERY_UNKNOWN_ROUTE',
          `The URL of route "${name}" needs the path parameter "${part.param}", which was not given.`,
        );
      }
      // An integer needs no encoding (an ID, the usual case); other numbers may print `e+21`.
      path += typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : encodeURIComponent(String(value));
    }
    // Every param filled the path (the usual case; all of the path's are given, checked above): no query string to build.
    let given = 0;
    for (const key in params) if (Object.hasOwn(params, key)) given++;
    if (given === names) return path;
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) if (!parts.some((part) => part.param === key)) query.append(key, String(value));
    const qs = query.toString();
    return qs === '' ? path : `${path}?${qs}`;
  }
}
