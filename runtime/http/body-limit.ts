/**
 * The largest body each route accepts (docs/http.md "Body limits").
 *
 * A route's limit is, in order: its own `bodyLimit` (YAML of the route or
 * its group, or a plugin's manifest), which may be above or below
 * `HTTP_MAX_BODY`; else the limit its declared input implies, at most
 * `HTTP_MAX_BODY`. A larger body is 413, refused on `Content-Length` before
 * a byte is read, or as soon as a chunked body grows past it.
 *
 * The implied limit: every body field must have a bound — a string a size
 * rule (`max`, `size`, `between`) or a list of values (`in`, `enum`); a list
 * a largest item count and items with a bound; numbers, booleans, durations
 * and timestamps count for 1 KiB; the `<key>_confirmation` field of a
 * `confirmed` field shares its bound. Each character may take 12 bytes on
 * the wire (a 4-byte UTF-8 character percent-encoded in a form, or a
 * surrogate pair as two `\uXXXX` escapes in JSON). The sum, plus each
 * field's name and 16 KiB for the CSRF token, `_method` and punctuation, is
 * rounded up to a KiB, and never below 64 KiB. A body field without a bound
 * (a string without a size rule, a file, a `json` value, a type this module
 * does not know) leaves the route at `HTTP_MAX_BODY`, as does a raw-body
 * route (its handler reads and limits the stream itself). A multipart body
 * with files is limited by the route's upload plan (`upload-plan.ts`).
 */
import type { BodyLimitSource } from '../binding/body-errors.js';
import type { FieldPlan, RouteDefinition, RuleRef } from '../routing/route-table.js';

export type { BodyLimitSource };

/** A route's body limit in bytes and where it comes from. */
export interface BodyLimit {
  readonly bytes: number;
  readonly source: BodyLimitSource;
}

/** The smallest implied limit, bytes. */
export const IMPLIED_FLOOR = 64 * 1024;
/** Room for the CSRF token, `_method`, unknown members and punctuation, bytes. */
const SLACK = 16 * 1024;
/** Bytes a character may take on the wire. */
const BYTES_PER_CHAR = 12;
/** Bytes counted for a number, boolean, duration or timestamp. */
const SCALAR_BYTES = 1024;

/**
 * The body limit of `route` (see the module comment).
 * @param maxBodyBytes HTTP_MAX_BODY in bytes.
 */
export function routeBodyLimit(route: RouteDefinition, maxBodyBytes: number): BodyLimit {
  if (route.bodyLimit !== undefined) return { bytes: route.bodyLimit, source: 'route' };
  // A raw-body route streams the bytes to its handler, which limits them itself (docs/storage.md "Direct uploads").
  if (route.rawBody === true) return { bytes: maxBodyBytes, source: 'HTTP_MAX_BODY' };
  const implied = impliedBodyLimit(route.fields);
  return implied === undefined || implied >= maxBodyBytes
    ? { bytes: maxBodyBytes, source: 'HTTP_MAX_BODY' }
    : { bytes: implied, source: 'implied' };
}

/** The limit the body fields of a route imply, bytes, or `undefined` when one of them has no bound. */
export function impliedBodyLimit(fields: readonly FieldPlan[]): number | undefined {
  let total = SLACK;
  for (const field of fields) {
    if (field.source !== 'body') continue;
    const bound = fieldBound(field, fields);
    if (bound === undefined) return undefined;
    total += bound + 3 * Math.max(field.json?.length ?? 0, field.form?.length ?? 0) + 16;
  }
  return Math.max(IMPLIED_FLOOR, Math.ceil(total / 1024) * 1024);
}

/** The bytes `field` may take, or `undefined` when it has no bound. */
function fieldBound(field: FieldPlan, fields: readonly FieldPlan[]): number | undefined {
  const { kind, array } = field.type;
  if (!array) return scalarBound(kind, field.rules) ?? confirmationBound(field, fields);
  const items = sizeBound(field.rules);
  if (items === undefined) return undefined;
  const inner = field.rules.filter((r) => r.name === 'each' && r.inner !== undefined).map((r) => r.inner!);
  const item = scalarBound(kind, inner);
  return item === undefined ? undefined : items * (item + 16);
}

/** The bytes one value of `kind` with `rules` may take, or `undefined`. */
function scalarBound(kind: string, rules: readonly RuleRef[]): number | undefined {
  switch (kind) {
    case 'integer':
    case 'number':
    case 'boolean':
    case 'duration':
    case 'timestamp':
      return SCALAR_BYTES;
    case 'string': {
      const chars = sizeBound(rules) ?? valuesBound(rules);
      return chars === undefined ? undefined : chars * BYTES_PER_CHAR;
    }
    default:
      return undefined;
  }
}

/** The largest size the rules allow (`max:n`, `size:n`, `between:a,b`), or `undefined`. */
function sizeBound(rules: readonly RuleRef[]): number | undefined {
  let bound: number | undefined;
  for (const rule of rules) {
    const n = rule.name === 'max' || rule.name === 'size' ? rule.params[0] : rule.name === 'between' ? rule.params[1] : undefined;
    if (typeof n === 'number' && Number.isFinite(n) && n >= 0) bound = bound === undefined ? n : Math.min(bound, n);
  }
  return bound;
}

/** The longest value an `in:` or `enum:` rule allows, in characters, or `undefined`. */
function valuesBound(rules: readonly RuleRef[]): number | undefined {
  const list = rules.find((r) => r.name === 'in' || r.name === 'enum');
  return list === undefined ? undefined : Math.max(0, ...list.params.map((v) => String(v).length));
}

/** The bound of the field `<key>_confirmation` confirms, when `field` is that confirmation. */
function confirmationBound(field: FieldPlan, fields: readonly FieldPlan[]): number | undefined {
  if (!field.key.endsWith('_confirmation')) return undefined;
  const base = fields.find((f) => `${f.key}_confirmation` === field.key && f.rules.some((r) => r.name === 'confirmed'));
  return base === undefined || base.type.array ? undefined : scalarBound(base.type.kind, base.rules);
}
