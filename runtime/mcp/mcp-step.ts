/**
 * The `mcp()` setup step (docs/mcp.md): agent access over the Model
 * Context Protocol. A Streamable HTTP endpoint (`/mcp`), built on the
 * official TypeScript SDK (`@modelcontextprotocol/server`, its
 * `createMcpHandler`: stateless, so N instances serve one URL, and 2025-era
 * clients through its stateless legacy leg), whose tools are the routes
 * with `mcp: true`, called through their own pipeline.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { hostHeaderValidation } from '@modelcontextprotocol/fastify';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SetupStep } from '../app/setup-step.js';
import type { ApiTokens } from '../auth/tokens/api-tokens.js';
import type { AuthService } from '../auth/auth-service.js';
import { BinderyError } from '../errors/bindery-error.js';
import { HttpError } from '../errors/http-error.js';
import type { RouteHandler } from '../http/handler.js';
import { respond } from '../results/result.js';
import type { RouteDefinition, RouteTable } from '../routing/route-table.js';
import { buildCatalog, type McpCatalog } from './mcp-catalog.js';
import { clientOfSession, initializeClient, sessionIdOf } from './legacy-client.js';
import { createMcpServer, mayCall, type McpCaller } from './mcp-server.js';
import type { OpenApiDocument } from './tool-catalog.js';

/** Options of {@link mcp}. */
export interface McpOptions {
  /** The endpoint's path (default `/mcp`). */
  readonly path?: string;
  /** The OpenAPI document the tools' schemas come from, relative to the app root (default `generated/openapi.json`). */
  readonly document?: string;
  /** The server's name and version in the MCP handshake (default the app's name and its package.json version). */
  readonly serverInfo?: { readonly name: string; readonly version: string };
  /**
   * Host names the endpoint answers (the SDK's Fastify adapter's DNS
   * rebinding protection: another `Host` is 403), e.g. `['localhost',
   * '127.0.0.1']` for a server on a developer's machine. Default: any.
   */
  readonly allowedHosts?: readonly string[];
}

/** The path of the protected-resource metadata (RFC 9728). */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/**
 * Serve the app's MCP tools (docs/mcp.md).
 *
 * Adds `POST`/`GET`/`DELETE` `/mcp` (GET and DELETE answer 405: the endpoint
 * keeps no sessions) and the protected-resource metadata at
 * `/.well-known/oauth-protected-resource` (and under it, `/mcp`). Callers
 * authenticate with an API token (`Authorization: Bearer <id>|<secret>`,
 * docs/tokens.md): none is 401 with `WWW-Authenticate` naming the metadata;
 * a tool whose abilities the token lacks is left out of `tools/list` and a
 * call of it is 403 `insufficient_scope`. Needs `tokens()` before it.
 *
 * @throws {BinderyError} `BINDERY_API_DOCS_UNAVAILABLE` at boot when the OpenAPI document cannot be read;
 *   `BINDERY_ROUTE_INVALID` when a route with `mcp: true` has no operation in it.
 * @example setup: [auth(), tokens(), …, mcp()]
 */
export function mcp(options: McpOptions = {}): SetupStep {
  const path = options.path ?? '/mcp';
  return {
    name: 'mcp',
    call: 'mcp()',
    requires: [
      { name: 'auth', call: 'auth()' },
      { name: 'tokens', call: 'tokens()' },
    ],
    async setup(ctx) {
      const file = resolve(ctx.app.root, options.document ?? 'generated/openapi.json');
      let document: OpenApiDocument;
      try {
        document = JSON.parse(await readFile(file, 'utf8')) as OpenApiDocument;
      } catch (error) {
        throw new BinderyError(
          'BINDERY_API_DOCS_UNAVAILABLE',
          `mcp() reads the tools' schemas from ${file}, which cannot be read: ${(error as Error).message}. Run "bindery generate".`,
          { cause: error },
        );
      }
      const info = options.serverInfo ?? { name: ctx.app.name, version: await packageVersion(ctx.app.root) };
      let catalog: McpCatalog | undefined;
      // The whole route table, plugins' routes included, once every step has run.
      ctx.addRouteCheck((routes: RouteTable) => {
        try {
          catalog = buildCatalog(routes, document, () => readFile(file, 'utf8'));
        } catch (error) {
          throw new BinderyError('BINDERY_ROUTE_INVALID', (error as Error).message, { cause: error });
        }
      });
      const services = ctx.services as { apiTokens?: ApiTokens; auth?: AuthService };
      const handler: McpHttpHandler = createMcpHandler(
        ({ authInfo }) => {
          const { caller, server } = authInfo!.extra as { caller: McpCaller; server: FastifyRequest['server'] };
          const env = { server, services: ctx.services as never, audited: ctx.services['audit'] !== undefined };
          return createMcpServer(info, catalog!, env, caller);
        },
        { legacy: 'stateless', onerror: (error) => ctx.log.debug({ err: error }, 'MCP request refused') },
      );
      ctx.onClose(() => handler.close());
      const hostCheck = options.allowedHosts !== undefined ? hostHeaderValidation([...options.allowedHosts]) : undefined;

      const endpoint: RouteHandler<Record<string, never>, unknown> = async (_input, rc) => {
        const request = rc.request;
        if (hostCheck !== undefined) {
          await hostCheck(request, rc.reply);
          if (rc.reply.sent) return respond((reply) => reply);
        }
        const metadata = `${origin(request)}${PROTECTED_RESOURCE_PATH}${path}`;
        const caller = await authenticate(request, services.apiTokens!, services.auth!, metadata);
        checkScope(request.body, catalog!, caller, metadata);
        return respond((reply) => serve(handler, request, reply, caller));
      };
      const metadataHandler: RouteHandler<Record<string, never>, unknown> = (_input, rc) => {
        const base = origin(rc.request);
        const scopes = [...new Set(catalog!.tools.flatMap((t) => t.abilities))].sort();
        return {
          resource: `${base}${path}`,
          bearer_methods_supported: ['header'],
          scopes_supported: scopes,
          resource_name: info.name,
          resource_documentation: `${base}/docs`,
        };
      };
      const route = (name: string, method: RouteDefinition['method'], url: string, custom: boolean): RouteDefinition => ({
        name,
        method,
        path: url,
        group: null,
        middleware: [],
        result: custom ? 'custom' : 'ok',
        fields: [],
        validate: null,
        output: null,
        origin: 'mcp()',
        ...(custom ? { bodyLimit: Number(ctx.settings['HTTP_MAX_BODY'] ?? 1_048_576) } : {}),
      });
      ctx.addRoutes(
        [
          route('mcp:post', 'POST', path, true),
          route('mcp:get', 'GET', path, true),
          route('mcp:delete', 'DELETE', path, true),
          route('mcp:metadata', 'GET', PROTECTED_RESOURCE_PATH, false),
          route('mcp:metadataOfPath', 'GET', `${PROTECTED_RESOURCE_PATH}${path}`, false),
        ],
        {
          'mcp:post': endpoint,
          'mcp:get': endpoint,
          'mcp:delete': endpoint,
          'mcp:metadata': metadataHandler,
          'mcp:metadataOfPath': metadataHandler,
        },
      );
    },
  };
}

/** The origin clients reach the app at (behind a trusted proxy, the forwarded one). */
function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * The caller of a request to the endpoint, by its bearer token.
 * @throws {HttpError} 401 with the `WWW-Authenticate` challenge naming the metadata: no token, or one that does not check out.
 */
async function authenticate(request: FastifyRequest, tokens: ApiTokens, auth: AuthService, metadata: string): Promise<McpCaller> {
  const match = /^bearer(?:\s+(.*))?$/i.exec(request.headers.authorization ?? '');
  if (match === null)
    throw new HttpError('BINDERY_TOKEN_MISSING', 'The MCP endpoint needs an API token: send Authorization: Bearer <token>.', {
      headers: { 'www-authenticate': `Bearer resource_metadata="${metadata}"` },
    });
  const token = await tokens.check((match[1] ?? '').trim());
  const user = token === null ? null : await auth.users.findById(token.userId);
  if (token === null || user === null)
    throw new HttpError('BINDERY_TOKEN_INVALID', 'The token is invalid, expired or revoked; create a new one.', {
      headers: { 'www-authenticate': `Bearer error="invalid_token", resource_metadata="${metadata}"` },
    });
  // The token's last use, as the token middleware records it (at most once a minute).
  if (tokens.touchDue(token)) await tokens.touch(token);
  const client = clientOfSession(request.headers['mcp-session-id']);
  return { token: (match[1] ?? '').trim(), abilities: token.abilities, ip: request.ip, ...(client !== undefined ? { client } : {}) };
}

/**
 * A `tools/call` of a tool the token may not call is 403 `insufficient_scope`
 * naming the abilities it needs (the MCP authorization spec's step-up
 * challenge). Unknown tools are the protocol's to answer.
 * @throws {HttpError} 403.
 */
function checkScope(body: unknown, catalog: McpCatalog, caller: McpCaller, metadata: string): void {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
  if (method !== 'tools/call' || typeof params?.name !== 'string') return;
  const tool = catalog.byName.get(params.name);
  if (tool === undefined || mayCall(caller, tool)) return;
  const missing = tool.abilities.filter((a) => !caller.abilities.includes(a));
  throw new HttpError('BINDERY_TOKEN_ABILITY_MISSING', `This token may not call ${tool.name}: it lacks ${missing.join(', ')}.`, {
    headers: {
      'www-authenticate': `Bearer error="insufficient_scope", scope="${tool.abilities.join(' ')}", resource_metadata="${metadata}"`,
    },
  });
}

const SKIPPED_HEADERS = new Set(['content-length', 'connection', 'transfer-encoding', 'keep-alive']);

/** Hand the request to the SDK's web-standard handler and write its response. */
async function serve(handler: McpHttpHandler, request: FastifyRequest, reply: FastifyReply, caller: McpCaller): Promise<FastifyReply> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers))
    if (value !== undefined && !SKIPPED_HEADERS.has(name)) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  const hasBody = request.method === 'POST' && request.body !== undefined;
  const web = new Request(`${origin(request)}${request.url}`, {
    method: request.method,
    headers,
    ...(hasBody ? { body: JSON.stringify(request.body) } : {}),
  });
  const response = await handler.fetch(web, {
    authInfo: { token: caller.token, clientId: 'bindery', scopes: [...caller.abilities], extra: { caller, server: request.server } },
    ...(hasBody ? { parsedBody: request.body } : {}),
  });
  reply.code(response.status);
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') reply.header(name, value);
  });
  // A 2025-era client's name, kept by the client for the rest of its session (legacy-client.ts).
  const named = response.status === 200 && !response.headers.has('mcp-session-id') ? initializeClient(request.body) : undefined;
  if (named !== undefined) reply.header('mcp-session-id', sessionIdOf(named));
  if (response.body === null) return reply.send();
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream'))
    return reply.send(Readable.fromWeb(response.body as never));
  return reply.send(Buffer.from(await response.arrayBuffer()));
}

/** The `version` of the app's package.json, or `0.0.0`. */
async function packageVersion(root: string): Promise<string> {
  try {
    const pkg = JSON.parse(await readFile(resolve(root, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}
