/**
 * The error format of a group in the OpenAPI document (docs/errors.md "Error
 * formats"): the error responses of its routes are described by the
 * `ErrorLists` schema, as `application/json`, instead of problem details.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Route } from '../../model/model.js';

/** The schema of an error in the `lists` format. */
export const ERROR_LISTS_SCHEMA: OpenAPIV3_1.SchemaObject = {
  type: 'object',
  description:
    'An error in the `lists` format of the route\'s group (docs/errors.md "Error formats"): each member of `errors` is a field (its client name, or its last name with `keys: leaf`) with its messages; an error about no field is listed under the group\'s `other` member (default `body`).',
  properties: {
    errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
  },
  required: ['errors'],
};

const RESPONSE_REF = '#/components/responses/';

/**
 * Rewrite the error responses of the routes with an error format in
 * `document` (each a reference to a problem details response) to the
 * `ErrorLists` schema, keeping their descriptions and headers, and add the
 * schema. Routes without one are left as they are.
 */
export function applyErrorFormats(document: OpenAPIV3_1.Document, routes: readonly Route[]): void {
  const formatted = routes.filter((r) => r.errorFormat !== null);
  if (formatted.length === 0) return;
  const responses = document.components?.responses ?? {};
  for (const route of formatted) {
    const operation = document.paths?.[route.path]?.[route.method.toLowerCase() as OpenAPIV3_1.HttpMethods];
    if (operation === undefined) continue;
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      // A shared error response by reference, or a client error of the route's own (YAML `errors:`) written inline.
      const shared = '$ref' in response ? sharedResponse(responses, response.$ref) : status.startsWith('4') ? response : undefined;
      if (shared === undefined) continue;
      operation.responses![status] = {
        description: shared.description,
        ...(shared.headers !== undefined ? { headers: shared.headers } : {}),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorLists' } } },
      };
    }
  }
  const schemas = { ...(document.components?.schemas ?? {}), ErrorLists: ERROR_LISTS_SCHEMA };
  document.components = {
    ...document.components,
    schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : 1))),
  };
}

/** The shared response `ref` names (`#/components/responses/<name>`), or undefined for another reference. */
function sharedResponse(
  responses: NonNullable<OpenAPIV3_1.ComponentsObject['responses']>,
  ref: string,
): OpenAPIV3_1.ResponseObject | undefined {
  return ref.startsWith(RESPONSE_REF) ? (responses[ref.slice(RESPONSE_REF.length)] as OpenAPIV3_1.ResponseObject | undefined) : undefined;
}
