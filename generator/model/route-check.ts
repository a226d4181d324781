/**
 * Reporting one route's errors (`routes.<name>`): each at its node, and
 * whether there was one.
 */
import type { DataPath } from '../load/node-position.js';
import type { Reporter } from './reporter.js';

/** Reports a route's errors under `routes.<name>` and remembers whether there was one. */
export interface RouteCheck {
  readonly r: Reporter;
  readonly path: DataPath;
  /** Report `message` at `sub` (under the route) and mark the route failed. */
  fail(sub: DataPath, message: string, at?: 'key' | 'value'): void;
  /** Mark the route failed without a message: the error was reported where it lies (a resource, a shape). */
  failed(): void;
  readonly ok: boolean;
}

/** A check of the route at `path` (`['routes', name]`) reporting to `r`; `ok` until an error is reported or `failed()` called. */
export function routeCheck(r: Reporter, path: DataPath): RouteCheck {
  let ok = true;
  return {
    r,
    path,
    fail(sub, message, at = 'key') {
      ok = false;
      r.error([...path, ...sub], message, at);
    },
    failed() {
      ok = false;
    },
    get ok() {
      return ok;
    },
  };
}
