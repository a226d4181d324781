/**
 * The MCP tools of an app (docs/mcp.md "Tools"): one per route with
 * `mcp: true`, named after the route, described by the route's OpenAPI
 * operation — its `summary`, its parameters and JSON body as the input
 * schema, its success response as the output schema, its security scopes
 * as the abilities a token needs — and annotated by its method.
 */
import type { HttpMethod, RouteDefinition, RouteTable } from '../routing/route-table.js';

/** A JSON Schema object (as OpenAPI 3.1 writes them). */
export type JsonSchema = Record<string, unknown>;

/** The parts of an OpenAPI 3.1 document the catalog reads. */
export interface OpenApiDocument {
  readonly paths?: Record<string, Record<string, OpenApiOperation | undefined> | undefined>;
  readonly components?: { readonly schemas?: Record<string, JsonSchema> };
}

interface OpenApiOperation {
  readonly summary?: string;
  readonly description?: string;
  readonly parameters?: readonly { name: string; in: string; required?: boolean; schema?: JsonSchema; description?: string }[];
  readonly requestBody?: { content?: Record<string, { schema?: JsonSchema } | undefined> };
  readonly responses?: Record<string, { content?: Record<string, { schema?: JsonSchema } | undefined> } | undefined>;
  readonly security?: readonly Record<string, readonly string[]>[];
}

/** MCP tool annotations (hints to the client, from the HTTP method). */
export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/** One tool: what `tools/list` shows and what a call needs to make its request. */
export interface McpTool {
  readonly name: string;
  readonly route: RouteDefinition;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /** Only for answers that are JSON objects (MCP's structured content is an object). */
  readonly outputSchema?: JsonSchema;
  readonly annotations: ToolAnnotations;
  /** Abilities a token needs: the route's own and its policy action's (the operation's security scopes). */
  readonly abilities: readonly string[];
  /** A write (any method but GET): takes `dryRun`. */
  readonly writes: boolean;
  /** Argument names by where they go in the request. */
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  readonly bodyMembers: readonly string[];
}

const REF = '#/components/schemas/';

/**
 * The tools of `routes` (those with `mcp: true`), sorted by name.
 * @param document the app's OpenAPI document (`generated/openapi.json`).
 * @throws {Error} when an MCP route has no operation in the document (regenerate it).
 */
export function buildTools(routes: RouteTable, document: OpenApiDocument): McpTool[] {
  const tools: McpTool[] = [];
  for (const route of routes) {
    if (route.mcp !== true) continue;
    const operation = document.paths?.[route.path]?.[route.method.toLowerCase()];
    if (operation === undefined)
      throw new Error(
        `Route "${route.name}" has mcp: true, but the OpenAPI document has no ${route.method} ${route.path}; run "bindery generate".`,
      );
    tools.push(toolOf(route, operation, document));
  }
  return tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function toolOf(route: RouteDefinition, operation: OpenApiOperation, document: OpenApiDocument): McpTool {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const pathParams: string[] = [];
  const queryParams: string[] = [];
  for (const p of operation.parameters ?? []) {
    if (p.in !== 'path' && p.in !== 'query') continue;
    properties[p.name] = { ...(p.schema ?? {}), ...(p.description !== undefined ? { description: p.description } : {}) };
    if (p.required === true) required.push(p.name);
    (p.in === 'path' ? pathParams : queryParams).push(p.name);
  }
  const body = operation.requestBody?.content?.['application/json']?.schema;
  const bodyMembers: string[] = [];
  if (body !== undefined) {
    const resolved = resolveRef(body, document);
    for (const [name, schema] of Object.entries((resolved['properties'] as Record<string, JsonSchema> | undefined) ?? {})) {
      properties[name] = schema;
      bodyMembers.push(name);
    }
    for (const name of (resolved['required'] as string[] | undefined) ?? []) required.push(name);
  }
  const writes = route.method !== 'GET';
  if (writes)
    properties['dryRun'] = {
      type: 'boolean',
      description:
        'Run the call in a transaction that is rolled back: answer what it would return and the audit entries it would write, and leave nothing behind.',
    };
  const inputSchema = withDefs({ type: 'object', properties, ...(required.length > 0 ? { required } : {}) }, document);
  const success = Object.entries(operation.responses ?? {}).find(([status]) => /^2\d\d$/.test(status))?.[1];
  const output = success?.content?.['application/json']?.schema;
  const outputSchema = output !== undefined && resolveRef(output, document)['type'] === 'object' ? withDefs(output, document) : undefined;
  const abilities = new Set<string>(route.abilities ?? []);
  for (const requirement of operation.security ?? [])
    for (const scopes of Object.values(requirement)) for (const s of scopes) abilities.add(s);
  return {
    name: route.name,
    route,
    description: [operation.summary, operation.description].filter((t) => t !== undefined && t !== '').join('\n\n') || route.name,
    inputSchema,
    ...(outputSchema !== undefined ? { outputSchema } : {}),
    annotations: annotationsOf(route.method),
    abilities: [...abilities].sort(),
    writes,
    pathParams,
    queryParams,
    bodyMembers,
  };
}

/** GET reads only; DELETE destroys; PUT and DELETE may be repeated with the same effect (RFC 9110 9.2.2). */
function annotationsOf(method: HttpMethod): ToolAnnotations {
  return {
    readOnlyHint: method === 'GET',
    destructiveHint: method === 'DELETE',
    idempotentHint: method === 'GET' || method === 'PUT' || method === 'DELETE',
    openWorldHint: false,
  };
}

/** The schema a `$ref` to the document's components points at (one level), or the schema itself. */
function resolveRef(schema: JsonSchema, document: OpenApiDocument): JsonSchema {
  const ref = schema['$ref'];
  if (typeof ref !== 'string' || !ref.startsWith(REF)) return schema;
  return document.components?.schemas?.[ref.slice(REF.length)] ?? schema;
}

/**
 * `schema` made self-contained: references to the document's components
 * become `#/$defs/<name>`, with every schema they reach under `$defs`
 * (a tool schema is read on its own, without the OpenAPI document).
 */
function withDefs(schema: JsonSchema, document: OpenApiDocument): JsonSchema {
  const defs: Record<string, unknown> = {};
  const pending: string[] = [];
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(REF)) {
        const name = v.slice(REF.length);
        if (!(name in defs) && !pending.includes(name)) pending.push(name);
        out[k] = `#/$defs/${name}`;
      } else out[k] = rewrite(v);
    }
    return out;
  };
  const root = rewrite(schema) as JsonSchema;
  while (pending.length > 0) {
    const name = pending.shift()!;
    defs[name] = rewrite(document.components?.schemas?.[name] ?? {});
  }
  if (Object.keys(defs).length === 0) return root;
  // A root that is itself a reference: the schema it names, so the root's `type` is visible.
  const ref = root['$ref'];
  if (typeof ref === 'string' && Object.keys(root).length === 1)
    return { ...(defs[ref.slice('#/$defs/'.length)] as JsonSchema), $defs: defs };
  return { ...root, $defs: defs };
}
