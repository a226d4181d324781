/**
 * The `lists` error format of a group (docs/errors.md "Error formats"):
 * `{ "errors": { "<name>": ["<message>", …] } }`, the shape of the RealWorld
 * API and of Rails' `errors.full_messages`-style APIs, instead of problem
 * details.
 */
import type { ErrorFormatPlan } from '../routing/route-table.js';

/** The body of an error in the `lists` format. */
export interface ErrorLists {
  readonly errors: Readonly<Record<string, readonly string[]>>;
}

/**
 * The body of an error for a group answering in the `lists` format.
 * @param fieldErrors the field errors by the client's names (`user.email`), or undefined for an error about no field.
 * @param detail the error's text, listed under `format.other` when there are no field errors.
 * @example errorLists({ format: 'lists', keys: 'leaf', other: 'body' }, { 'user.email': 'is invalid' }, '…') // { errors: { email: ['is invalid'] } }
 */
export function errorLists(format: ErrorFormatPlan, fieldErrors: Readonly<Record<string, string>> | undefined, detail: string): ErrorLists {
  const errors: Record<string, string[]> = {};
  const entries = fieldErrors === undefined ? [] : Object.entries(fieldErrors);
  if (entries.length === 0) {
    errors[format.other] = [detail];
    return { errors };
  }
  for (const [name, message] of entries) {
    const key = format.keys === 'leaf' ? name.slice(name.lastIndexOf('.') + 1) : name;
    if (Object.hasOwn(errors, key)) errors[key]!.push(message);
    else errors[key] = [message];
  }
  return { errors };
}
