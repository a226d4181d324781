/**
 * JSON Schemas (OpenAPI 3.1 dialect) of resources' JSON output and of input
 * fields with their rules' constraints.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { ruleSchema } from '../../../runtime/validation/rules.js';
import type { ColumnKind, InputField, Resource, ResourceField } from '../../model/model.js';

type Schema = OpenAPIV3_1.SchemaObject;

const COLUMN: Readonly<Record<ColumnKind, Schema>> = {
  string: { type: 'string' },
  text: { type: 'string' },
  uuid: { type: 'string', format: 'uuid' },
  integer: { type: 'integer', format: 'int32' },
  bigint: { type: 'integer', format: 'int64' },
  number: { type: 'number', format: 'double' },
  duration: { type: 'integer', description: 'A duration in milliseconds.' },
  boolean: { type: 'boolean' },
  timestamp: { type: 'string', format: 'date-time' },
  json: {},
  file: {
    type: 'object',
    description: 'A stored file: its name, size in bytes, content type (detected from its bytes), SHA-256 and a signed URL that expires.',
    required: ['name', 'size', 'content_type', 'checksum', 'url'],
    properties: {
      name: { type: 'string' },
      size: { type: 'integer', format: 'int64' },
      content_type: { type: 'string' },
      checksum: { type: 'string', description: 'SHA-256 of the bytes, lower-case hex.' },
      url: { type: ['string', 'null'], format: 'uri' },
    },
  },
};

/** Allow `null` besides the schema's type (`json`, which has no type, already allows it). */
export function nullable(schema: Schema): Schema {
  if (schema.type === undefined) return schema;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const values = schema.enum ? { enum: [...schema.enum, null] } : {};
  return { ...schema, type: [...types, 'null'], ...values } as Schema;
}

/** The JSON Schema of a resource's JSON output (`<Name>Json`): JSON names, hidden fields absent. */
export function resourceJsonSchema(resource: Resource): Schema {
  const fields = resource.fields.filter((f) => !f.hidden);
  const properties: Record<string, Schema> = {};
  for (const f of fields) properties[f.json] = columnSchema(f);
  return {
    type: 'object',
    ...(resource.description ? { description: resource.description } : {}),
    properties,
    required: fields.filter((f) => !f.omitEmpty).map((f) => f.json),
  };
}

/** The JSON Schema of a visible field in its resource's JSON (also a projection's; docs/schema-language.md "Output shapes"). */
export function columnSchema(f: ResourceField): Schema {
  const scalar: Schema = {
    ...COLUMN[f.type.kind],
    ...(f.type.max !== undefined ? { maxLength: f.type.max } : {}),
    ...(f.type.values ? { enum: [...f.type.values] } : {}),
  };
  let schema: Schema = f.type.array ? { type: 'array', items: scalar } : scalar;
  if (f.type.nullable && !f.omitEmpty) schema = nullable(schema);
  return f.description ? { ...schema, description: f.description } : schema;
}

const INPUT: Readonly<Record<InputField['type']['kind'], Schema>> = {
  string: { type: 'string' },
  integer: { type: 'integer' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  duration: { type: ['integer', 'string'], description: 'A duration: milliseconds, or text like 90s, 15m, 1h30m or PT1H30M.' } as Schema,
  timestamp: { type: 'string', format: 'date-time' },
  file: { type: 'string', format: 'binary' },
  json: {},
  object: { type: 'object' },
};

/**
 * The JSON Schema of an input field: its type, default, and its rules'
 * constraints (the fragments of `ruleSchema`, merged where their keywords do
 * not collide, else under `allOf`). File fields carry no rule constraints
 * (their sizes are not visible in a schema).
 */
export function inputSchema(field: InputField): Schema {
  let schema: Schema = field.type.array ? { type: 'array', items: { ...INPUT[field.type.kind] } } : { ...INPUT[field.type.kind] };
  if (field.type.nullable) schema = nullable(schema);
  if (field.type.kind !== 'file') {
    for (const rule of field.rules) {
      const fragment = ruleSchema(rule, field.type);
      if (fragment) schema = merge(schema, field.type.nullable && rule.name !== 'required' ? admitNull(fragment) : fragment);
    }
  }
  if (field.fields) schema = { ...schema, ...nestedObject(field.fields) };
  if (field.default !== undefined) schema = { ...schema, default: field.default };
  return field.description ? { ...schema, description: field.description } : schema;
}

/** A fragment that lets `null` through (enumerations gain `null`). */
function admitNull(fragment: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(fragment['enum'])) return { ...fragment, enum: [...(fragment['enum'] as unknown[]), null] };
  if ('const' in fragment) {
    const { const: value, ...rest } = fragment;
    return { ...rest, enum: [value, null] };
  }
  return fragment;
}

/** Merge a rule fragment into a schema: new keywords are added, `items` merged, colliding ones go under `allOf`. */
function merge(schema: Schema, fragment: Record<string, unknown>): Schema {
  const out = { ...schema } as Record<string, unknown>;
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fragment)) {
    if (!(key in out) || JSON.stringify(out[key]) === JSON.stringify(value)) out[key] = value;
    else if (key === 'items' && typeof out[key] === 'object' && typeof value === 'object')
      out[key] = merge(out[key] as Schema, value as Record<string, unknown>);
    else rest[key] = value;
  }
  if (Object.keys(rest).length > 0) out['allOf'] = [...((out['allOf'] as unknown[] | undefined) ?? []), rest];
  return out as Schema;
}

/** The members of an object field's schema: its fields by JSON name, and the required ones (docs/schema-language.md "Nested input"). */
function nestedObject(fields: readonly InputField[]): Schema {
  const required = fields.filter((f) => f.required).map((f) => f.json ?? f.key);
  return {
    properties: Object.fromEntries(fields.map((f) => [f.json ?? f.key, inputSchema(f)])),
    ...(required.length > 0 ? { required } : {}),
  } as Schema;
}
