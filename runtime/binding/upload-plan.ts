/**
 * What a route's multipart body may carry (docs/storage.md "Uploads"),
 * decided at boot from its file fields: each file field's form names and
 * its size limit, taken from its rules (`max`, `between`, `size` in
 * kilobytes; `each:max:…` for a list of files), else `HTTP_MAX_BODY`.
 * The parser streams each file against its own limit (413 naming the
 * field), and the whole body against `HTTP_MAX_BODY` plus what the file
 * fields allow.
 */
import type { FieldPlan, RouteDefinition, RuleRef } from '../routing/route-table.js';

/** One file field of a route. */
export interface FileFieldPlan {
  /** The input key. */
  readonly key: string;
  /** The form field name the client sends (`avatar`; `avatar[]` reads the same field). */
  readonly form: string;
  /** The most bytes of one file. */
  readonly maxBytes: number;
  /** A list of files (`file[]`). */
  readonly array: boolean;
}

/** The files a route's multipart body may carry. */
export interface UploadPlan {
  /** File fields by form name (both `name` and `name[]`). */
  readonly files: ReadonlyMap<string, FileFieldPlan>;
  /** The most bytes of the whole body. */
  readonly maxBodyBytes: number;
}

/** Files counted for a list field without an item limit, for the body's total. */
const LIST_FILES_WITHOUT_LIMIT = 10;

/** The largest size in bytes the size rules allow (`max`, `between`, `size`, in kilobytes), or `undefined`. */
function sizeLimit(rules: readonly RuleRef[]): number | undefined {
  let limit: number | undefined;
  for (const rule of rules) {
    const kb =
      rule.name === 'max' || rule.name === 'size' ? Number(rule.params[0]) : rule.name === 'between' ? Number(rule.params[1]) : undefined;
    if (kb !== undefined && Number.isFinite(kb)) limit = Math.min(limit ?? Number.POSITIVE_INFINITY, Math.floor(kb * 1024));
  }
  return limit;
}

/** The most items a list's rules allow, or `undefined`. */
function itemLimit(rules: readonly RuleRef[]): number | undefined {
  return sizeLimit(rules) === undefined ? undefined : Math.floor(sizeLimit(rules)! / 1024);
}

function filePlan(field: FieldPlan, maxBodyBytes: number): FileFieldPlan {
  const rules = field.type.array ? field.rules.filter((r) => r.name === 'each' && r.inner).map((r) => r.inner!) : field.rules;
  return { key: field.key, form: field.form!, maxBytes: sizeLimit(rules) ?? maxBodyBytes, array: field.type.array };
}

/**
 * The upload plan of `route`, or `null` when it has no file field.
 * @param maxBodyBytes `HTTP_MAX_BODY` (or the route's own body limit).
 */
export function compileUploadPlan(route: RouteDefinition, maxBodyBytes: number): UploadPlan | null {
  const fields = route.fields.filter((f) => f.type.kind === 'file' && f.source === 'body' && f.form !== undefined);
  if (fields.length === 0) return null;
  const files = new Map<string, FileFieldPlan>();
  let total = route.bodyLimit ?? maxBodyBytes;
  for (const field of fields) {
    const plan = filePlan(field, maxBodyBytes);
    files.set(plan.form, plan);
    files.set(`${plan.form}[]`, plan);
    if (route.bodyLimit === undefined) total += plan.maxBytes * (plan.array ? (itemLimit(field.rules) ?? LIST_FILES_WITHOUT_LIMIT) : 1);
  }
  return { files, maxBodyBytes: total };
}
