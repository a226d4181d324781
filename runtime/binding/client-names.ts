/**
 * The client's names of input fields, used as `errors` keys and in messages
 * (docs/spec.md 4.5: keys use the client's names).
 */
import type { FieldPlan } from '../routing/route-table.js';
import type { BodyKind } from './body-kind.js';

/**
 * The name the client used for `field`: for body fields the form name when
 * the body is a form, else the JSON name (each falling back to the other,
 * then to the key); for query, path and header fields their `name`.
 */
export function clientName(field: FieldPlan, bodyKind: BodyKind): string {
  if (field.source !== 'body') return field.name ?? field.key;
  return bodyKind === 'form' ? (field.form ?? field.json ?? field.key) : (field.json ?? field.form ?? field.key);
}

/**
 * The `:attribute` of a message: the client's name with `_` as spaces, and
 * `.<index>` for a list item.
 * @example attributeName('created_at') // "created at"
 * @example attributeName('tags', 1) // "tags.1"
 */
export function attributeName(name: string, item?: number): string {
  const words = name.replace(/_/g, ' ');
  return item === undefined ? words : `${words}.${item}`;
}
