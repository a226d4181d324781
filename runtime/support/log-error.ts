/**
 * Errors as log lines show them (docs/observability.md "Logs"): what the
 * error says, never what it holds. pg hangs the whole client on the error of
 * an idle connection (`error.client`: its parameters, its type table, the
 * SQL it prepared — kilobytes); a request or a socket can hang off others.
 */

/** The longest string field kept, in characters (a longer one is cut, with `…`). */
const MAX_FIELD = 500;
/** How deep a chain of causes is followed. */
const MAX_DEPTH = 5;
/** How many errors of an `AggregateError` are kept. */
const MAX_ERRORS = 10;

/** True for an `Error`, this realm's or another's (not for the plain fields {@link errorForLog} makes of one). */
export function isErrorLike(value: unknown): value is Error {
  return value instanceof Error || Object.prototype.toString.call(value) === '[object Error]';
}

function small(value: unknown): unknown {
  if (typeof value === 'string') return value.length > MAX_FIELD ? `${value.slice(0, MAX_FIELD)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  if (typeof value === 'bigint') return String(value);
  return undefined;
}

/**
 * An error as plain fields for a log line: `type` (its class), `message`,
 * `stack`, its own string, number and boolean fields (`code`, `severity`,
 * `detail`, `errno`…; strings cut at 500 characters), its `cause` chain (5
 * deep) and an `AggregateError`'s `errors` (the first 10), each the same
 * way. Objects it carries (a pg client, a request) are left out.
 *
 * @param value any value; what is not an error is returned unchanged.
 * @param depth how deep in a cause chain `value` is (leave it out).
 * @returns the fields, or `value` itself.
 * @example log.warn({ err: errorForLog(error) }, 'database connection lost') // the app logger does it for every error
 */
export function errorForLog(value: unknown, depth = 0): unknown {
  if (!isErrorLike(value)) return value;
  const type = typeof value.constructor === 'function' && value.constructor.name ? value.constructor.name : value.name;
  const out: Record<string, unknown> = { type, message: value.message, stack: value.stack };
  for (const [key, field] of Object.entries(value)) {
    if (key in out || key === 'cause' || key === 'errors') continue;
    const kept = small(field);
    if (kept !== undefined) out[key] = kept;
  }
  const cause = (value as { cause?: unknown }).cause;
  if (cause !== undefined && depth < MAX_DEPTH) {
    const shown = isErrorLike(cause) ? errorForLog(cause, depth + 1) : small(cause);
    if (shown !== undefined) out.cause = shown;
  }
  const errors = (value as { errors?: unknown }).errors;
  if (Array.isArray(errors) && depth < MAX_DEPTH) {
    out.errors = errors.slice(0, MAX_ERRORS).map((e) => (isErrorLike(e) ? errorForLog(e, depth + 1) : small(e)));
  }
  return out;
}

/**
 * `fields` with every error among its values written by {@link errorForLog},
 * whatever its key (`err`, `error`, `e`: graphile-worker uses all three).
 * @returns `fields` itself when it holds no error, else a copy.
 */
export function errorsForLog(fields: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    if (!isErrorLike(value)) continue;
    copy ??= { ...fields };
    copy[key] = errorForLog(value);
  }
  return copy ?? fields;
}
