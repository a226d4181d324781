/**
 * `generated/openapi.json`: an OpenAPI 3.1 document of the routes that answer
 * JSON or text (every result kind but `page`), with problem details
 * (docs/spec.md 2.8, `application/problem+json`) for 400, 404, 422 and the rest.
 * Rate-limited routes list their 429; guarded routes their 401 and 403 and
 * their security (openapi/authorization.ts). Paths sorted, methods in OpenAPI
 * order, components sorted; the header is the root `x-generated-by`.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Include, Model, Route } from '../../model/model.js';
import { camelCase } from '../../model/names.js';
import { TOKEN_MIDDLEWARE } from '../../model/routes.js';
import type { EmitContext } from '../context.js';
import { fileOfParts, type GeneratedFile } from '../../write/generated-file.js';
import { inputSchema, resourceJsonSchema } from './schemas.js';
import { shapeComponentSchema, shapeTypeSchema } from './shape-schemas.js';
import { answeredTypes } from '../shape-types.js';
import { applyErrorFormats } from './error-formats.js';
import { authorizationExtension, mayForbid, refusesGuests, securityOf, sessionScheme, tokenSchemes } from './authorization.js';

const METHOD_ORDER = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const PROBLEM = 'application/problem+json';

/** The root extension carrying the "generated — do not edit" header. */
export const GENERATED_BY = 'x-generated-by';

const BEARER_SCHEME: OpenAPIV3_1.SecuritySchemeObject = {
  type: 'http',
  scheme: 'bearer',
  description:
    'An API token, `<id>|<secret>`, sent as `Authorization: Bearer <token>`. The scopes of a requirement are the abilities the token needs.',
};

const usesToken = (route: Route): boolean => route.middleware.includes(TOKEN_MIDDLEWARE);
const problemRef = (name: string): OpenAPIV3_1.ReferenceObject => ({ $ref: `#/components/responses/${name}` });

const PROBLEM_DETAILS: OpenAPIV3_1.SchemaObject = {
  type: 'object',
  description: 'RFC 9457 problem details (docs/spec.md 2.8).',
  properties: {
    type: { type: 'string', const: 'about:blank' },
    title: { type: 'string', description: 'The HTTP status phrase.' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    errors: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Field name → message; present for binding and validation errors.',
    },
    request_id: { type: 'string' },
  },
  required: ['type', 'title', 'status'],
};

function problemResponse(description: string): OpenAPIV3_1.ResponseObject {
  return { description, content: { [PROBLEM]: { schema: { $ref: '#/components/schemas/ProblemDetails' } } } };
}

/** Emit `openapi.json` (see the module comment). */
export function emitOpenApi(ctx: EmitContext): GeneratedFile {
  const routes = ctx.model.routes.filter((r) => r.result !== 'page');
  const paths: Record<string, Record<string, OpenAPIV3_1.OperationObject>> = {};
  const byPath = new Map<string, Map<string, Route>>();
  for (const route of routes) {
    const methods = byPath.get(route.path) ?? new Map<string, Route>();
    byPath.set(route.path, methods);
    const method = route.method.toLowerCase();
    if (!methods.has(method)) methods.set(method, route);
  }
  for (const path of [...byPath.keys()].sort()) {
    const item: Record<string, OpenAPIV3_1.OperationObject> = {};
    const methods = byPath.get(path)!;
    for (const method of METHOD_ORDER) {
      const route = methods.get(method);
      if (route) item[method] = operation(route, ctx.model);
    }
    paths[path] = item;
  }
  const schemas: Record<string, OpenAPIV3_1.SchemaObject> = {};
  const answered = answeredTypes(ctx.model, routes);
  const outputs = answered.resources;
  for (const resource of [...ctx.model.resources].filter((r) => outputs.has(r.name)).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    schemas[resource.name] = resourceJsonSchema(resource);
  }
  const resources = new Map(ctx.model.resources.map((r) => [r.name, r]));
  for (const shape of ctx.model.shapes.filter((s) => answered.shapes.has(s.name)))
    schemas[shape.name] = shapeComponentSchema(shape, shape.from ? resources.get(shape.from.resource)! : null);
  schemas['ProblemDetails'] = PROBLEM_DETAILS;
  const info = ctx.model.info;
  const tokenRoutes = routes.filter(usesToken);
  const document: OpenAPIV3_1.Document = {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, ...(info.description ? { description: info.description } : {}) },
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : 1))),
      responses: {
        BadRequest: problemResponse('A value could not be converted to its type; `errors` lists each field.'),
        Error: problemResponse('Any other error (e.g. 500).'),
        ...(routes.some(mayForbid)
          ? {
              Forbidden: problemResponse(
                "The bearer token lacks an ability the route needs, or the route's policy does not allow the caller this action (docs/authorization.md).",
              ),
            }
          : {}),
        NotFound: problemResponse('Not found.'),
        ...(routes.some((r) => !usesToken(r) && refusesGuests(r, ctx.model))
          ? { SignInRequired: problemResponse('The caller is not signed in (no session, or it has ended).') }
          : {}),
        ...(routes.some((r) => r.confirmPassword !== null)
          ? {
              PasswordConfirmationRequired: problemResponse(
                'The route needs a recent password confirmation (`code`: `BINDERY_PASSWORD_CONFIRMATION_REQUIRED`): POST the password to the confirm route, then retry.',
              ),
            }
          : {}),
        ...(routes.some((r) => r.rateLimit !== null) ? { TooManyRequests: tooManyRequests() } : {}),
        ...(tokenRoutes.length > 0
          ? {
              Unauthorized: problemResponse(
                'No bearer token, or one that is malformed, unknown, expired or revoked (`WWW-Authenticate: Bearer`).',
              ),
            }
          : {}),
        ValidationFailed: problemResponse('The given data was invalid; `errors` has a message per field.'),
      },
      ...(tokenRoutes.length > 0 || Object.keys(sessionScheme(routes, ctx.model)).length > 0
        ? { securitySchemes: { ...tokenSchemes(tokenRoutes, BEARER_SCHEME), ...sessionScheme(routes, ctx.model) } }
        : {}),
    },
  };
  applyErrorFormats(document, routes);
  // OpenAPI 3.1 allows no `$comment` at the root: the header is an `x-` extension.
  // Printed as `{ [GENERATED_BY]: header, ...document }` would be, the header's line apart (generated-file.ts).
  const body = JSON.stringify(document, null, 2);
  return fileOfParts('openapi.json', `{\n  ${JSON.stringify(GENERATED_BY)}: ${JSON.stringify(ctx.header)},\n`, body.slice(2), '\n');
}

function operation(route: Route, model: Model): OpenAPIV3_1.OperationObject {
  const parameters: OpenAPIV3_1.ParameterObject[] = route.input
    .filter((f) => f.source !== 'body')
    .map((f) => ({
      name: f.name!,
      in: f.source,
      required: f.source === 'path' || f.required,
      ...(f.description ? { description: f.description } : {}),
      schema: parameterSchema(inputSchema(f)),
    }));
  const body = requestBody(route);
  const responses: OpenAPIV3_1.ResponsesObject = { ...success(route) };
  if (route.input.length > 0) responses['400'] = problemRef('BadRequest');
  if (route.pathParams.length > 0 || route.authorize?.target) responses['404'] = problemRef('NotFound');
  if (route.input.length > 0) responses['422'] = problemRef('ValidationFailed');
  if (usesToken(route)) responses['401'] = problemRef('Unauthorized');
  else if (refusesGuests(route, model)) responses['401'] = problemRef('SignInRequired');
  if (mayForbid(route)) responses['403'] = problemRef('Forbidden');
  if (route.rateLimit !== null) responses['429'] = problemRef('TooManyRequests');
  if (route.confirmPassword !== null) responses['423'] = problemRef('PasswordConfirmationRequired');
  for (const { status, description } of route.errors) responses[String(status)] = problemResponse(description);
  responses['default'] = problemRef('Error');
  return {
    operationId: camelCase(route.name),
    ...(route.summary ? { summary: route.summary } : {}),
    ...(route.description ? { description: route.description } : {}),
    ...(route.group ? { tags: [route.group] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
    ...securityOf(route, model),
    ...authorizationExtension(route),
    ...(route.rateLimit !== null
      ? { 'x-rate-limit': { limit: route.rateLimit.limit, windowSeconds: route.rateLimit.windowMs / 1000, by: route.rateLimit.by } }
      : {}),
  };
}

/** The 429 of rate-limited routes, with its headers (docs/http.md "Rate limits"). */
function tooManyRequests(): OpenAPIV3_1.ResponseObject {
  const integer = (description: string): OpenAPIV3_1.HeaderObject => ({ description, schema: { type: 'integer' } });
  return {
    ...problemResponse("Too many requests from this client in the route's window; retry after `Retry-After` seconds."),
    headers: {
      'Retry-After': integer('Seconds until the window ends.'),
      'X-RateLimit-Limit': integer('Requests allowed per window.'),
      'X-RateLimit-Remaining': integer('Requests left in this window (0).'),
      'X-RateLimit-Reset': integer('When the window ends, epoch seconds.'),
    },
  };
}

/**
 * openapi-types 12 declares 3.1 parameters with the 3.0 schema type; a 3.1
 * schema (e.g. `type: ['integer', 'null']`) is what the document needs.
 */
function parameterSchema(schema: OpenAPIV3_1.SchemaObject): OpenAPIV3_1.ParameterObject['schema'] {
  return schema as unknown as OpenAPIV3_1.ParameterObject['schema'];
}

function requestBody(route: Route): OpenAPIV3_1.RequestBodyObject | undefined {
  const fields = route.input.filter((f) => f.source === 'body');
  if (fields.length === 0) return undefined;
  const object = (by: 'json' | 'form'): OpenAPIV3_1.SchemaObject => {
    const bound = fields.filter((f) => f[by] !== undefined);
    const required = bound.filter((f) => f.required).map((f) => f[by]!);
    return {
      type: 'object',
      properties: Object.fromEntries(bound.map((f) => [f[by]!, inputSchema(f)])),
      ...(required.length > 0 ? { required } : {}),
    };
  };
  const content: Record<string, OpenAPIV3_1.MediaTypeObject> = {};
  if (fields.some((f) => f.json !== undefined)) content['application/json'] = { schema: object('json') };
  if (fields.some((f) => f.form !== undefined)) {
    const media = fields.some((f) => f.form !== undefined && f.type.kind === 'file')
      ? 'multipart/form-data'
      : 'application/x-www-form-urlencoded';
    content[media] = { schema: object('form') };
  }
  return { ...(fields.some((f) => f.required) ? { required: true } : {}), content };
}

function success(route: Route): OpenAPIV3_1.ResponsesObject {
  const location = {
    Location: { description: 'URL of the new resource, when the handler gives one.', schema: { type: 'string' } },
  } as const;
  const json = (): OpenAPIV3_1.MediaTypeObject => {
    if (route.shape !== null) return { schema: shapeTypeSchema(route.shape.type, route.shape.nullable, route.shape.description) };
    if (!route.output) return { schema: {} };
    const ref = rowSchema(route.output.resource, route.include);
    if (route.list) return { schema: route.list.paging === 'offset' ? offsetPageSchema(ref) : listPageSchema(ref) };
    return { schema: route.output.array ? { type: 'array', items: ref } : ref };
  };
  switch (route.result) {
    case 'ok':
      return { '200': { description: 'OK', content: { 'application/json': json() } } };
    case 'created':
      return { '201': { description: 'Created', headers: location, content: { 'application/json': json() } } };
    case 'noContent':
      return { '204': { description: 'No Content' } };
    case 'redirect':
      return {
        '303': { description: 'See Other', headers: { Location: { description: 'Where to go next.', schema: { type: 'string' } } } },
      };
    case 'text':
      return { '200': { description: 'OK', content: { 'text/plain': { schema: { type: 'string' } } } } };
    case 'stream':
      return {
        '200': { description: 'OK: a JSON array, written batch by batch (no Content-Length).', content: { 'application/json': json() } },
      };
    default:
      return { '200': { description: "Written by the handler's custom responder." } };
  }
}

/** An output row: the resource, with its included paths (related rows or null, lists of rows, computed numbers and booleans). */
function rowSchema(resource: string, include: readonly Include[]): OpenAPIV3_1.SchemaObject | OpenAPIV3_1.ReferenceObject {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  if (include.length === 0) return ref(resource);
  const member = (i: Include): OpenAPIV3_1.SchemaObject | OpenAPIV3_1.ReferenceObject => {
    switch (i.kind) {
      case 'count':
        return { type: 'integer', minimum: 0, description: i.description ?? `How many ${i.resource} rows are related.` };
      case 'viewerIn':
        return {
          type: 'boolean',
          description: i.description ?? 'Whether the signed-in user is among the related rows (false for a guest).',
        };
      case 'many':
        return {
          type: 'array',
          items: rowSchema(i.resource, i.include),
          ...(i.description !== undefined ? { description: i.description } : {}),
        };
      default:
        return { oneOf: [rowSchema(i.resource, i.include), { type: 'null' }] };
    }
  };
  return {
    allOf: [
      ref(resource),
      {
        type: 'object',
        properties: Object.fromEntries(include.map((i) => [i.name, member(i)])),
        required: include.map((i) => i.name),
      },
    ],
  };
}

/** An offset list's page: `{ data: [rows], total }`. */
function offsetPageSchema(row: OpenAPIV3_1.SchemaObject | OpenAPIV3_1.ReferenceObject): OpenAPIV3_1.SchemaObject {
  return {
    type: 'object',
    properties: {
      data: { type: 'array', items: row },
      total: { type: 'integer', minimum: 0, description: 'How many rows match, over every page.' },
    },
    required: ['data', 'total'],
  };
}

/** A list route's page: `{ data: [rows], next: cursor | null }`. */
function listPageSchema(row: OpenAPIV3_1.SchemaObject | OpenAPIV3_1.ReferenceObject): OpenAPIV3_1.SchemaObject {
  return {
    type: 'object',
    properties: {
      data: { type: 'array', items: row },
      next: { type: ['string', 'null'], description: 'The cursor of the next page (send it as `cursor`); null on the last page.' },
    },
    required: ['data', 'next'],
  };
}
