/**
 * The client of a 2025-era MCP session, kept by the client itself
 * (docs/mcp.md "Audit"). A 2025-era client names itself only in its
 * `initialize` request; a stateless endpoint would forget it by the next
 * request. So the answer to `initialize` carries an `Mcp-Session-Id` that
 * *is* the client's name and version (base64url JSON), which the client
 * sends back on every later request of the session, to whichever instance.
 * Nothing is stored; the name is what the client said of itself, as in
 * any handshake.
 */

/** A client's name and version. */
export interface ClientInfo {
  readonly name: string;
  readonly version: string;
}

const MAX_NAME = 100;
const MAX_VERSION = 50;
const PREFIX = 'c1.';

/** The client of an `initialize` request body, or undefined when it is not one or names no client. */
export function initializeClient(body: unknown): ClientInfo | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: { clientInfo?: unknown } };
  if (method !== 'initialize') return undefined;
  return checked(params?.clientInfo);
}

/** The session ID carrying `client`. */
export function sessionIdOf(client: ClientInfo): string {
  return PREFIX + Buffer.from(JSON.stringify({ n: client.name, v: client.version })).toString('base64url');
}

/** The client a session ID carries, or undefined for any other value (a missing, foreign or malformed one). */
export function clientOfSession(header: string | string[] | undefined): ClientInfo | undefined {
  if (typeof header !== 'string' || !header.startsWith(PREFIX) || header.length > 400) return undefined;
  try {
    const { n, v } = JSON.parse(Buffer.from(header.slice(PREFIX.length), 'base64url').toString('utf8')) as { n?: unknown; v?: unknown };
    return checked({ name: n, version: v });
  } catch {
    return undefined;
  }
}

function checked(value: unknown): ClientInfo | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { name, version } = value as { name?: unknown; version?: unknown };
  if (typeof name !== 'string' || typeof version !== 'string' || name === '') return undefined;
  return { name: name.slice(0, MAX_NAME), version: version.slice(0, MAX_VERSION) };
}
