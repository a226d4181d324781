/**
 * The MCP server of one request (docs/mcp.md): the SDK's low-level
 * `Server`, made fresh for every HTTP request (stateless, so any instance
 * serves any request), answering `tools/list`, `tools/call`,
 * `resources/list`, `resources/templates/list` and `resources/read` for
 * the caller the request authenticated.
 */
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, Server } from '@modelcontextprotocol/server';
import { callTool, type ToolCallEnv } from './tool-call.js';
import type { McpTool } from './tool-catalog.js';
import type { McpCatalog } from './mcp-catalog.js';

/** The caller of a request to `/mcp`, authenticated by its bearer token. */
export interface McpCaller {
  readonly token: string;
  readonly abilities: readonly string[];
  readonly ip: string;
  /** The client a 2025-era session carries (legacy-client.ts), when it sent one. */
  readonly client?: { readonly name: string; readonly version: string };
}

/** Whether `caller` may call `tool`: its token has every ability the tool needs. */
export function mayCall(caller: McpCaller, tool: McpTool): boolean {
  return tool.abilities.every((a) => caller.abilities.includes(a));
}

/**
 * A server for one request of `caller`.
 * @param info the server's name and version (the app's).
 */
export function createMcpServer(info: { name: string; version: string }, catalog: McpCatalog, env: ToolCallEnv, caller: McpCaller): Server {
  const server = new Server(info, { capabilities: { tools: {}, resources: {} } });
  const client = () => {
    const c = server.getClientVersion();
    return c === undefined ? caller.client : { name: c.name, version: c.version };
  };
  const call = (tool: McpTool, args: Record<string, unknown>) => {
    const named = client();
    return callTool(env, tool, args, { token: caller.token, ip: caller.ip, ...(named !== undefined ? { client: named } : {}) });
  };

  server.setRequestHandler('tools/list', () => ({
    tools: catalog.tools
      .filter((t) => mayCall(caller, t))
      .map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema as never,
        ...(t.outputSchema !== undefined ? { outputSchema: t.outputSchema as never } : {}),
        annotations: t.annotations,
      })),
  }));

  server.setRequestHandler('tools/call', async (request) => {
    const tool = catalog.byName.get(request.params.name);
    // Unknown, and known but not permitted (the endpoint answered 403 before this for a bearer token): the protocol's error.
    if (tool === undefined || !mayCall(caller, tool))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const result = await call(tool, (request.params.arguments ?? {}) as Record<string, unknown>);
    return result as never;
  });

  server.setRequestHandler('resources/list', () => ({
    resources: [{ uri: catalog.openApiUri, name: 'openapi', title: 'The OpenAPI document', mimeType: 'application/json' }],
  }));

  server.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: catalog.rowResources
      .filter((r) => mayCall(caller, r.tool))
      .map((r) => ({ uriTemplate: r.template, name: r.tool.name, description: r.tool.description, mimeType: 'application/json' })),
  }));

  server.setRequestHandler('resources/read', async (request) => {
    const uri = request.params.uri;
    if (uri === catalog.openApiUri) return { contents: [{ uri, mimeType: 'application/json', text: await catalog.openApiText() }] };
    const match = catalog.matchRow(uri);
    if (match === undefined || !mayCall(caller, match.tool)) throw new ResourceNotFoundError(uri);
    const result = await call(match.tool, match.args);
    // Not found, and not the caller's to see (the policy answers 404 or 403): no such resource.
    if (result.isError === true) throw new ResourceNotFoundError(uri, `Resource ${uri} not found.`);
    return { contents: [{ uri, mimeType: 'application/json', text: result.content[0]?.text ?? '' }] };
  });

  return server;
}
