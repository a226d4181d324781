/**
 * Route path templates: `{param}` wildcards, whole segments only.
 */

/** The `{param}` names of a path, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!);
}

/**
 * The path with every wildcard written `{}`: two paths with the same shape
 * match the same URLs (`/a/{x}` and `/a/{y}`).
 */
export function pathShape(path: string): string {
  return path.replace(/\{[A-Za-z_][A-Za-z0-9_]*\}/g, '{}');
}
