/**
 * Names of generated TypeScript declarations, derived from schema names.
 */

/**
 * PascalCase of a route name: words split at `.`, `_` and `-`, each
 * capitalized; inner capitals kept.
 * @example pascalCase('notes.create') // 'NotesCreate'
 */
export function pascalCase(name: string): string {
  return name
    .split(/[._-]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

/**
 * camelCase of a route name.
 * @example camelCase('notes.create') // 'notesCreate'
 */
export function camelCase(name: string): string {
  const pascal = pascalCase(name);
  return pascal[0]!.toLowerCase() + pascal.slice(1);
}

/** `NotesCreateInput`: the input type of a route in `generated/types.ts`. */
export function inputTypeName(route: string): string {
  return `${pascalCase(route)}Input`;
}

/** `notesCreate`: the route's validator export in `generated/validators.ts`. */
export function validatorName(route: string): string {
  return camelCase(route);
}

/** The type names a resource adds to `generated/types.ts`. */
export function resourceTypeNames(resource: string): { table: string; row: string; insert: string; update: string; json: string } {
  return { table: `${resource}Table`, row: resource, insert: `New${resource}`, update: `${resource}Update`, json: `${resource}Json` };
}

/** `serializeNote`: the serializer export of a resource in `generated/serializers.ts`. */
export function serializerName(resource: string): string {
  return `serialize${resource}`;
}

/** The type names a shape (or a route's output, by its `<Route>Output` name) adds to `generated/types.ts`: its value and its JSON. */
export function shapeTypeNames(shape: string): readonly [value: string, json: string] {
  return [shape, `${shape}Json`];
}

/** `ArticlesShowOutput`: the output type of a route whose output is not a resource or a named shape. */
export function outputTypeName(route: string): string {
  return `${pascalCase(route)}Output`;
}

/** Names `generated/types.ts` declares or imports besides the per-resource and per-route ones. */
export const RESERVED_TYPE_NAMES: readonly string[] = [
  'Database',
  'JsonValue',
  'UploadedFile',
  'ColumnType',
  'Generated',
  'Insertable',
  'Kysely',
  'Selectable',
  'Updateable',
  'FileJson',
  'FileRef',
  'RouteHandler',
  'ResultFor',
  'ListPage',
  'Handlers',
];

/** Names the typed client and the OpenAPI document declare themselves: no shape may take them. */
export const RESERVED_SHAPE_NAMES: readonly string[] = [
  'ApiError',
  'CallOptions',
  'Client',
  'ClientOptions',
  'ErrorStatusOf',
  'ListPage',
  'ProblemDetails',
  'Redirect',
  'RouteErrors',
];

/** Whether a validator export name would clash with names inside the ajv standalone module. */
export function clashesWithValidatorInternals(name: string): boolean {
  return /^(validate|schema|pattern|func|formats)\d+$/.test(name) || name === 'require' || name === 'createRequire';
}
