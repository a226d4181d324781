/**
 * One MCP tool call, run as its route's own request (docs/mcp.md "How a
 * call runs"): the arguments become the route's path, query and JSON body,
 * the caller's token its `Authorization`, and Fastify's `inject()` sends it
 * through the route's pipeline — body limit, middleware (token, abilities,
 * rate limit), binding, policy, rules, handler, serializer — exactly as an
 * HTTP client's request. The request is an internal call
 * (runtime/http/internal-call.ts): its work is attributed to `mcp` and the
 * tool, with the MCP client's name and version; a dry run gets services
 * bound to a transaction that is rolled back.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AnyKysely } from '../db/any-kysely.js';
import type { Services } from '../http/context.js';
import { withInternalCall } from '../http/internal-call.js';
import { dryRunServices, entriesOf, inRolledBackTransaction, type DryRunEntry } from './dry-run.js';
import type { McpTool } from './tool-catalog.js';

/** Who calls: the token as presented, and the client from the MCP handshake (when it named itself). */
export interface ToolCaller {
  readonly token: string;
  readonly ip: string;
  readonly client?: { readonly name: string; readonly version: string };
}

/** A `tools/call` result (MCP's `CallToolResult`). */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** What a call needs of the app. */
export interface ToolCallEnv {
  readonly server: FastifyInstance;
  readonly services: Services;
  /** Whether the app has the audit log (its entries are read back in a dry run). */
  readonly audited: boolean;
}

/** The request a call makes, or the field errors of arguments that cannot make one. */
type Built = { method: string; url: string; payload?: string } | { errors: Record<string, string> };

/** The route's request for `args`. Path parameters are required; other arguments go where the operation takes them. */
export function buildRequest(tool: McpTool, args: Record<string, unknown>): Built {
  const errors: Record<string, string> = {};
  let path = tool.route.path;
  for (const name of tool.pathParams) {
    const value = args[name];
    if (typeof value !== 'string' && typeof value !== 'number') {
      errors[name] = value === undefined ? `The ${name} field is required.` : `The ${name} field must be a string or a number.`;
      continue;
    }
    path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
  }
  if (Object.keys(errors).length > 0) return { errors };
  const query = new URLSearchParams();
  for (const name of tool.queryParams) {
    const value = args[name];
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) query.append(name, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const taken = new Set([...tool.pathParams, ...tool.queryParams, 'dryRun']);
  const body: Record<string, unknown> = {};
  // Members the operation does not list go in the body too: the route's binder answers them as it answers any client.
  for (const [name, value] of Object.entries(args)) if (!taken.has(name)) body[name] = value;
  const qs = query.toString();
  const url = qs === '' ? path : `${path}?${qs}`;
  const hasBody = tool.route.method !== 'GET' && (tool.bodyMembers.length > 0 || Object.keys(body).length > 0);
  return { method: tool.route.method, url, ...(hasBody ? { payload: JSON.stringify(body) } : {}) };
}

/**
 * Run `tool` with `args` for `caller`. Never throws for what the route
 * answers: a 4xx or 5xx is a tool error carrying the route's problem details
 * (a 422 its field errors).
 */
export async function callTool(env: ToolCallEnv, tool: McpTool, args: Record<string, unknown>, caller: ToolCaller): Promise<ToolResult> {
  const built = buildRequest(tool, args);
  if ('errors' in built) return problem(400, { title: 'The arguments do not make a request.', status: 422, errors: built.errors });
  const dryRun = tool.writes && args['dryRun'] === true;
  const requestId = randomUUID();
  const via = { kind: 'mcp', name: tool.name, ...(caller.client !== undefined ? { client: caller.client } : {}) };
  const inject = (services: Services | undefined) =>
    withInternalCall({ via, dryRun, ...(services !== undefined ? { services } : {}) }, (marker) =>
      env.server.inject({
        method: built.method as 'GET',
        url: built.url,
        remoteAddress: caller.ip,
        headers: {
          ...marker,
          authorization: `${tool.route.tokenScheme ?? 'Bearer'} ${caller.token}`,
          accept: 'application/json',
          'x-request-id': requestId,
          ...(built.payload !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(built.payload !== undefined ? { payload: built.payload } : {}),
      }),
    );
  if (!dryRun) return resultOf(await inject(undefined));
  const db = (env.services as unknown as { db: AnyKysely }).db;
  return inRolledBackTransaction(db, async (trx) => {
    const response = await inject(dryRunServices(env.services, trx));
    const entries = response.statusCode < 400 ? await entriesOf(trx, requestId, env.audited) : [];
    return dryRunResult(resultOf(response), entries);
  });
}

/** The tool result of the route's answer. */
function resultOf(response: { statusCode: number; body: string; headers: Record<string, unknown> }): ToolResult {
  const type = String(response.headers['content-type'] ?? '');
  const body: unknown = type.includes('json') && response.body !== '' ? JSON.parse(response.body) : response.body;
  if (response.statusCode >= 400) return problem(response.statusCode, body);
  if (response.statusCode === 204 || response.body === '') return { content: [{ type: 'text', text: `Done (${response.statusCode}).` }] };
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    content: [{ type: 'text', text }],
    ...(body !== null && typeof body === 'object' && !Array.isArray(body) ? { structuredContent: body as Record<string, unknown> } : {}),
  };
}

/** A tool error: the route's problem details (status, title, field errors) as text and as structured content. */
function problem(status: number, body: unknown): ToolResult {
  const details = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : { status, title: String(body) };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(details) }] };
}

/** The `_meta` key of a dry run's audit entries. */
export const DRY_RUN_META = 'dev.bindery/dryRun';

/**
 * A dry run's result: what the call would have answered (its structured
 * content, so it still meets the output schema), the audit entries it would
 * have written under `_meta["dev.bindery/dryRun"]`, and both as text.
 */
function dryRunResult(result: ToolResult, entries: DryRunEntry[]): ToolResult {
  if (result.isError === true) return result;
  const would = result.structuredContent ?? result.content[0]?.text ?? null;
  return {
    content: [{ type: 'text', text: JSON.stringify({ dryRun: true, result: would, audit: entries }) }],
    ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
    _meta: { [DRY_RUN_META]: { rolledBack: true, audit: entries } },
  };
}
