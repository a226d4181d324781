/**
 * Route path templates (`/notes/{id}`): Fastify paths, and matching of concrete
 * paths for 405.
 */
import type { HttpMethod } from '../routing/route-table.js';

/** Order of methods in `Allow`. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The Fastify (find-my-way) path of a template: `{id}` → `:id`; a literal
 * `:` is doubled as find-my-way requires.
 * @example fastifyPath('/notes/{id}') // "/notes/:id"
 */
export function fastifyPath(template: string): string {
  return template.replace(/:/g, '::').replace(/\{([^}]+)\}/g, ':$1');
}

/** The path parameter names of a template, in order. */
export function pathParams(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/** A regular expression matching the (still percent-encoded) paths of a template. */
export function templateRegExp(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : escapeRegExp(part)))
    .join('');
  return new RegExp(`^${source}$`);
}

/** Finds the methods served at a concrete path, for `405 Method Not Allowed` and its `Allow` header. */
export class MethodIndex {
  readonly #entries: Array<{ readonly re: RegExp; readonly method: string }> = [];

  /** Add a route (template and method); GET routes also serve HEAD. */
  add(template: string, method: HttpMethod): void {
    const re = templateRegExp(template);
    this.#entries.push({ re, method });
    if (method === 'GET') this.#entries.push({ re, method: 'HEAD' });
  }

  /**
   * The methods of every route whose template matches `path` (without query),
   * in the order GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS; empty for an unknown path.
   */
  allowed(path: string): string[] {
    const found = new Set<string>();
    for (const entry of this.#entries) if (entry.re.test(path)) found.add(entry.method);
    return METHOD_ORDER.filter((m) => found.has(m));
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
