/**
 * What the MCP endpoint serves (docs/mcp.md "Tools", "Resources"): the
 * tools, the OpenAPI document as the resource `bindery://openapi`, and the
 * rows the `show` routes among the tools can read, as URI templates
 * (`bindery://documents/{id}` for `GET /api/documents/{id}`).
 */
import type { RouteTable } from '../routing/route-table.js';
import { buildTools, type McpTool, type OpenApiDocument } from './tool-catalog.js';

/** A row a tool can read, as a resource template. */
export interface RowResource {
  /** `bindery://documents/{id}`. */
  readonly template: string;
  readonly tool: McpTool;
  readonly pattern: RegExp;
  readonly params: readonly string[];
}

/** The endpoint's tools and resources. */
export interface McpCatalog {
  readonly tools: readonly McpTool[];
  readonly byName: ReadonlyMap<string, McpTool>;
  readonly openApiUri: string;
  openApiText(): Promise<string>;
  readonly rowResources: readonly RowResource[];
  /** The tool and arguments reading the row of `uri`, or undefined when no template matches. */
  matchRow(uri: string): { tool: McpTool; args: Record<string, string> } | undefined;
}

/** The URI scheme of the app's resources. */
export const RESOURCE_SCHEME = 'bindery';

/**
 * The catalog of `routes`.
 * @param openApiText the document's text, read when a client reads the resource.
 * @throws {Error} as {@link buildTools} does.
 */
export function buildCatalog(routes: RouteTable, document: OpenApiDocument, openApiText: () => Promise<string>): McpCatalog {
  const tools = buildTools(routes, document);
  const rowResources = tools.filter(isShowRoute).map(rowResourceOf);
  return {
    tools,
    byName: new Map(tools.map((t) => [t.name, t])),
    openApiUri: `${RESOURCE_SCHEME}://openapi`,
    openApiText,
    rowResources,
    matchRow(uri) {
      for (const r of rowResources) {
        const m = r.pattern.exec(uri);
        if (m === null) continue;
        return { tool: r.tool, args: Object.fromEntries(r.params.map((p, i) => [p, decodeURIComponent(m[i + 1]!)])) };
      }
      return undefined;
    },
  };
}

/** A GET answering one row of a resource, named by the path: a row to read. */
function isShowRoute(tool: McpTool): boolean {
  const { route } = tool;
  return (
    route.method === 'GET' &&
    route.result === 'ok' &&
    route.output?.resource !== undefined &&
    !route.output.array &&
    tool.pathParams.length > 0
  );
}

/** The template of a show route: its path after a leading `/api`, on the `bindery://` scheme. */
function rowResourceOf(tool: McpTool): RowResource {
  const path = tool.route.path.replace(/^\/api(?=\/)/, '');
  const template = `${RESOURCE_SCHEME}:/${path}`;
  const params: string[] = [];
  const source = template
    .split(/(\{[A-Za-z_][A-Za-z0-9_]*\})/)
    .map((part) => {
      const param = /^\{(.+)\}$/.exec(part);
      if (param === null) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      params.push(param[1]!);
      return '([^/?#]+)';
    })
    .join('');
  return { template, tool, pattern: new RegExp(`^${source}$`), params };
}
