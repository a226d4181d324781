/**
 * Where a route was declared, for error messages: `schema/notes.yaml:24:3`.
 *
 * The route table carries only the schema file (`origin: 'schema/notes.yaml'`),
 * so that a comment line or a reordered key in the YAML does not change the
 * generated code (see docs/generator.md, "Origins"). The line and column are
 * looked up here, from the YAML file, only when a message needs them: at
 * boot, on an error path, never per request.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, resolve } from 'node:path';

const require = createRequire(import.meta.url);

/** What {@link routeOrigin} needs of a route. */
export interface RouteOriginInput {
  readonly name: string;
  /** The route's `origin`: a schema file relative to the project root, or any other text (kept as is). */
  readonly origin: string;
}

const cache = new Map<string, Map<string, string>>();

/**
 * The route's declaration as `file:line:column` (1-based; the position of the
 * route's key under `routes:`), found by reading `origin` relative to `root`.
 * When the origin is not a YAML file, cannot be read, or does not declare the
 * route (the schema changed since `generate`), the origin as it is.
 * @param root project root; default the working directory.
 */
export function routeOrigin(route: RouteOriginInput, root: string = process.cwd()): string {
  if (!/\.ya?ml$/.test(route.origin)) return route.origin;
  const path = isAbsolute(route.origin) ? route.origin : resolve(root, route.origin);
  let positions = cache.get(path);
  if (positions === undefined) {
    positions = routePositions(path);
    cache.set(path, positions);
  }
  const at = positions.get(route.name);
  return at === undefined ? route.origin : `${route.origin}:${at}`;
}

/** `line:column` of each route key of a schema file; empty when the file cannot be read or parsed. */
function routePositions(path: string): Map<string, string> {
  const positions = new Map<string, string>();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return positions;
  }
  // Loaded only here: the runtime parses no YAML otherwise.
  const yaml = require('yaml') as typeof import('yaml');
  const lines = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter: lines });
  const routes = doc.get('routes', true);
  if (!yaml.isMap(routes)) return positions;
  for (const pair of routes.items) {
    const key = pair.key;
    if (!yaml.isScalar(key) || typeof key.value !== 'string' || !key.range) continue;
    const { line, col } = lines.linePos(key.range[0]);
    positions.set(key.value, `${line}:${col}`);
  }
  return positions;
}
