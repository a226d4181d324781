/**
 * A route's answer (`routes.<name>.output`, docs/schema-language.md
 * "Results", "Output shapes"): rows of a resource or a shape, checked
 * against the result kind — and the warning about a list of rows answered
 * at once (docs/http.md "Unbounded answers").
 */
import type { RawRoute } from '../language/raw.js';
import type { Route } from './model.js';
import type { RouteCheck } from './route-check.js';
import { resolveShapeMember, type ShapeScope } from './shapes.js';

/** What a route answers: a resource output (rows of a resource) or a shape; a list route may fill in `output` later. */
export interface RouteAnswer {
  output: Route['output'];
  shape: Route['shape'];
}

/**
 * The route's `output:`: rows of a resource (`Note`, `Note[]`) or any other
 * shape; only ok, created and stream results have a body, and a stream's is
 * a list.
 */
export function resolveOutput(c: RouteCheck, raw: RawRoute, scope: ShapeScope): RouteAnswer {
  const answer: RouteAnswer = { output: null, shape: null };
  if (raw.output === undefined) {
    if (raw.result === 'stream' && raw.list === undefined)
      c.fail(['result'], 'a stream result writes the rows of a list output; add "output" (e.g. output: "Document[]")', 'value');
    return answer;
  }
  const resolved = resolveShapeMember(c.r, [...c.path, 'output'], raw.output, scope);
  if (!resolved) c.failed();
  else if (resolved.optional) c.fail(['output', 'optional'], 'optional applies to members of an object; a JSON body is always written');
  else if (raw.result !== 'ok' && raw.result !== 'created' && raw.result !== 'stream') {
    c.fail(['output'], `a "${raw.result}" result has no JSON body; remove "output" or use result ok, created or stream`);
  } else if (raw.result === 'stream' && (resolved.type.kind !== 'array' || resolved.nullable)) {
    c.fail(
      ['output'],
      'a stream result writes a JSON array row by row; its output is a list (e.g. "Document[]"), not nullable — for one value use result ok',
    );
  } else {
    const { type, optional: _, ...rest } = resolved;
    const items = type.kind === 'array' ? type.items : null;
    if (!resolved.nullable && type.kind === 'resource') answer.output = { resource: type.name, array: false };
    else if (!resolved.nullable && items?.kind === 'resource') answer.output = { resource: items.name, array: true };
    else answer.shape = { type, ...rest };
  }
  return answer;
}

/**
 * Warn about a list of rows answered at once: an output `Note[]` with
 * neither a page (`list:`) nor `result: stream` holds every row the handler
 * returns in memory and in one body, however many the table has
 * (docs/http.md "Unbounded answers"). Lists of shapes and scalars, which the
 * handler builds, are not checked.
 */
export function unboundedAdvice(c: RouteCheck, raw: RawRoute, answer: RouteAnswer, list: Route['list']): void {
  if (answer.output?.array !== true || list !== null || raw.result === 'stream' || raw.output === undefined) return;
  const resource = answer.output.resource;
  c.r.warn(
    [...c.path, 'output'],
    `"${resource}[]" answers every ${resource} row the handler returns at once, in memory and in one body however many there are; page it with "list:" (docs/schema-language.md "List routes") or write it batch by batch with "result: stream" (docs/http.md "Unbounded answers")`,
    'value',
  );
}
