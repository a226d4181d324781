/**
 * Wording of JSON-Schema errors for schema authors: what is wrong, the value
 * seen, and what is expected, using the `title`/`description` of the
 * language schema's nodes.
 */
import type { ErrorObject } from 'ajv';
import { didYouMean } from '../suggest.js';
import type { DataPath } from './node-position.js';

/** Where an ajv error points and what it says. */
export interface DescribedError {
  readonly path: DataPath;
  /** `key` for errors about an entry's presence or name, `value` for errors about its value. */
  readonly at: 'key' | 'value';
  readonly message: string;
}

interface SchemaNode {
  readonly title?: string;
  readonly description?: string;
  readonly properties?: Record<string, unknown>;
  readonly enum?: readonly unknown[];
}

/**
 * Describe one ajv error (from a validator compiled with `verbose: true`, so
 * `parentSchema` and `data` are present) found at `path`.
 */
export function describeAjvError(error: ErrorObject, path: DataPath): DescribedError {
  const schema = (error.parentSchema ?? {}) as SchemaNode;
  const noun = schema.title ?? 'value';
  const expected = schema.description ? ` (${schema.description})` : '';
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(error.params['additionalProperty']);
      const allowed = Object.keys(schema.properties ?? {});
      const hint = didYouMean(key, allowed);
      return { path: [...path, key], at: 'key', message: `unknown key "${key}"${hint}; allowed keys: ${allowed.join(', ')}` };
    }
    case 'required':
      return { path, at: 'key', message: `missing required key "${String(error.params['missingProperty'])}"` };
    case 'enum': {
      const allowed = (error.params['allowedValues'] as readonly unknown[]).map(String);
      const hint = typeof error.data === 'string' ? didYouMean(error.data, allowed) : '';
      return { path, at: 'value', message: `unknown ${noun} ${show(error.data)}${hint}; expected one of: ${allowed.join(', ')}` };
    }
    case 'pattern':
    case 'not': {
      // A pattern error on a property name carries the name (ajv `propertyNames`).
      if (error.propertyName !== undefined) {
        return { path: [...path, error.propertyName], at: 'key', message: `${show(error.propertyName)} is not a valid ${noun}${expected}` };
      }
      return { path, at: 'value', message: `${show(error.data)} is not a valid ${noun}${expected}` };
    }
    case 'type': {
      // Maps and lists are described by their shape; scalars by their description when they have one.
      const type = String(error.params['type']);
      const scalar = schema.description !== undefined && type !== 'object' && type !== 'array';
      const wanted = !scalar ? article(type) : schema.title ? `a ${schema.title} (${schema.description})` : schema.description;
      return { path, at: 'value', message: `expected ${wanted}, got ${describe(error.data)}` };
    }
    case 'minProperties':
      return { path, at: 'value', message: `${noun} must not be empty; expected ${schema.description ?? 'at least one entry'}` };
    case 'minItems':
      return { path, at: 'value', message: `${noun} must have at least ${String(error.params['limit'])} item(s)` };
    case 'uniqueItems':
      return { path, at: 'value', message: `${noun} has a duplicate item ${show((error.data as unknown[])[Number(error.params['i'])])}` };
    case 'minLength':
      return { path, at: 'value', message: `expected ${schema.description ?? 'a non-empty string'}, got ${show(error.data)}` };
    case 'minimum':
    case 'maximum':
      return {
        path,
        at: 'value',
        message: `expected ${schema.description ?? `a number ${error.keyword === 'minimum' ? '>=' : '<='} ${String(error.params['limit'])}`}, got ${show(error.data)}`,
      };
    default:
      return { path, at: 'value', message: `${noun} ${error.message ?? 'is invalid'}` };
  }
}

/** A value as written in messages: strings quoted, others as JSON. */
export function show(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? String(value));
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  return `${typeof value === 'number' ? 'a number' : typeof value === 'boolean' ? 'a boolean' : 'a string'} (${show(value)})`;
}

function article(type: string): string {
  const words: Record<string, string> = {
    object: 'a map',
    array: 'a list',
    string: 'a string',
    boolean: 'true or false',
    integer: 'a whole number',
    number: 'a number',
  };
  return type
    .split(',')
    .map((t) => words[t] ?? t)
    .join(' or ');
}
