/**
 * Defaults of absent fields (`FieldPlan.default`), prepared once at boot.
 */
import type { FieldPlan } from '../routing/route-table.js';
import { parseDuration } from '../support/duration.js';
import { parseTimestamp } from './timestamp.js';

/**
 * A function giving a fresh default for each request (lists and objects are
 * copied, timestamps are new `Date`s, so a handler mutating its input never
 * changes the next request's default), or `undefined` when the field has none.
 * @throws {Error} when the default does not fit the field's type (the message says why; the caller adds the route).
 */
export function defaultMaker(plan: FieldPlan): (() => unknown) | undefined {
  const value = plan.default;
  if (value === undefined) return undefined;
  const { kind, array } = plan.type;
  if (value === null) {
    if (!plan.type.nullable) throw new Error('the default is null but the field is not nullable');
    return () => null;
  }
  if (array) {
    if (!Array.isArray(value)) throw new Error(`the default must be a list, got ${JSON.stringify(value)}`);
    const items = value.map((item) => prepare(kind, item));
    return kind === 'timestamp' ? () => items.map((d) => new Date((d as Date).getTime())) : () => items.slice();
  }
  const prepared = prepare(kind, value);
  if (prepared instanceof Date) {
    const time = prepared.getTime();
    return () => new Date(time);
  }
  if (typeof prepared === 'object' && prepared !== null) return () => structuredClone(prepared);
  return () => prepared;
}

function prepare(kind: FieldPlan['type']['kind'], value: unknown): unknown {
  switch (kind) {
    case 'timestamp': {
      const date = typeof value === 'string' ? parseTimestamp(value) : undefined;
      if (date === undefined) throw new Error(`the default ${JSON.stringify(value)} is not an RFC 3339 date-time`);
      return date;
    }
    case 'duration': {
      const ms = typeof value === 'number' ? value : typeof value === 'string' ? parseDuration(value) : undefined;
      if (ms === undefined || !Number.isFinite(ms))
        throw new Error(`the default ${JSON.stringify(value)} is not a duration in milliseconds`);
      return ms;
    }
    case 'integer':
      if (!Number.isSafeInteger(value)) throw new Error(`the default ${JSON.stringify(value)} is not a safe integer`);
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`the default ${JSON.stringify(value)} is not a number`);
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw new Error(`the default ${JSON.stringify(value)} is not a boolean`);
      return value;
    case 'string':
      if (typeof value !== 'string') throw new Error(`the default ${JSON.stringify(value)} is not a string`);
      return value;
    case 'file':
      throw new Error('a file field cannot have a default');
    case 'object':
      throw new Error('an object field cannot have a default (its fields can)');
    case 'json':
      return value;
  }
}
