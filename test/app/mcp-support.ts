/**
 * Support of the MCP tests (docs/mcp.md): the SDK's own client connected to
 * a running app's `/mcp` with a bearer token, and raw JSON-RPC posts for
 * what a client hides (statuses, `WWW-Authenticate`).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/** The client the tests name in the handshake: audit entries record it. */
export const CLIENT_INFO = { name: 'claude-desktop', version: '1.2' } as const;

/**
 * A connected SDK client of `baseUrl`'s `/mcp` sending `token`.
 * @param era `modern` negotiates 2026-07-28 (`server/discover`), `legacy` speaks the 2025 protocol.
 */
export async function mcpClient(baseUrl: string, token: string, era: 'modern' | 'legacy' = 'modern'): Promise<Client> {
  const client = new Client({ ...CLIENT_INFO }, era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {});
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

/** A raw 2025-era JSON-RPC request to `/mcp`: its status, headers and parsed body. */
export async function rawMcp(
  baseUrl: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // An SSE body or nothing: kept as text.
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** The JSON of a tool result's first text block. */
export function textOf(result: unknown): any {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return JSON.parse(content[0]?.text ?? 'null');
}
