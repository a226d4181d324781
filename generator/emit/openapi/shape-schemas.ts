/**
 * JSON Schemas (OpenAPI 3.1 dialect) of output shapes
 * (docs/schema-language.md "Output shapes"): a named shape is a component
 * (`#/components/schemas/Profile`), referred to like a resource; inline
 * objects are written in place.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Resource, Shape, ShapeMember, ShapeScalar, ShapeType } from '../../model/model.js';
import { columnSchema, nullable } from './schemas.js';

type Schema = OpenAPIV3_1.SchemaObject | OpenAPIV3_1.ReferenceObject;

const SCALAR: Readonly<Record<ShapeScalar, OpenAPIV3_1.SchemaObject>> = {
  string: { type: 'string' },
  integer: { type: 'integer' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  datetime: { type: 'string', format: 'date-time' },
  json: {},
};

const ref = (name: string): OpenAPIV3_1.ReferenceObject => ({ $ref: `#/components/schemas/${name}` });

/** The schema of a value of `type`, allowing `null` when `isNullable`. */
export function shapeTypeSchema(type: ShapeType, isNullable: boolean, description?: string): Schema {
  let schema = typeSchema(type);
  if (isNullable) schema = '$ref' in schema ? { oneOf: [schema, { type: 'null' }] } : nullable(schema);
  if (description === undefined) return schema;
  return '$ref' in schema ? { allOf: [schema], description } : { ...schema, description };
}

function typeSchema(type: ShapeType): Schema {
  switch (type.kind) {
    case 'scalar':
      return { ...SCALAR[type.scalar] };
    case 'resource':
    case 'shape':
      return ref(type.name);
    case 'array':
      return { type: 'array', items: typeSchema(type.items) };
    case 'object':
      return objectSchema([], type.members);
  }
}

function objectSchema(fields: readonly Resource['fields'][number][], members: readonly ShapeMember[]): OpenAPIV3_1.SchemaObject {
  const properties: Record<string, Schema> = {};
  for (const f of fields) properties[f.json] = columnSchema(f);
  for (const m of members) properties[m.name] = shapeTypeSchema(m.type, m.nullable, m.description);
  const required = [...fields.filter((f) => !f.omitEmpty).map((f) => f.json), ...members.filter((m) => !m.optional).map((m) => m.name)];
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/** The component schema of a named shape: a projection's fields (as its resource writes them), then its members. */
export function shapeComponentSchema(shape: Shape, resource: Resource | null): OpenAPIV3_1.SchemaObject {
  const fields = resource ? resource.fields.filter((f) => shape.from!.fields.includes(f.name)) : [];
  const schema = objectSchema(fields, shape.members);
  return shape.description ? { ...schema, description: shape.description } : schema;
}
