/**
 * Real HTTP servers for the runtime tests: `createHttpServer` listening on
 * 127.0.0.1:0, logs captured through a pino destination, and small
 * `fetch`/`node:http` helpers. Every server started here is closed by
 * {@link closeAll} (call it in `afterAll`/`afterEach`).
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import type { FastifyInstance } from 'fastify';
import { createHttpServer } from '../../../../runtime/http/server.js';
import type { HttpServerOptions } from '../../../../runtime/http/server-options.js';
import type { Services } from '../../../../runtime/http/context.js';

/** One captured log line (pino JSON). */
export type LogLine = Record<string, unknown> & { level: number; msg?: string };

/** A started server. */
export interface TestServer {
  readonly app: FastifyInstance;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Log lines written so far. */
  readonly logs: LogLine[];
}

const started: FastifyInstance[] = [];

/** A pino logger at `trace` writing parsed lines into `lines`. */
export function capturingLogger(lines: LogLine[]) {
  return pino(
    { level: 'trace' },
    {
      write: (line: string) => {
        lines.push(JSON.parse(line) as LogLine);
      },
    },
  );
}

/**
 * Start a server with test defaults (environment `testing`, debug off,
 * 1 MiB body limit, 5 s timeout, no services) overridden by `options`.
 */
export async function startServer(
  options: Partial<HttpServerOptions> & Pick<HttpServerOptions, 'routes' | 'handlers'>,
): Promise<TestServer> {
  const logs: LogLine[] = [];
  const app = await createHttpServer({
    services: {} as Services,
    environment: 'testing',
    debug: false,
    maxBodyBytes: 1024 * 1024,
    requestTimeoutMs: 5_000,
    logger: capturingLogger(logs),
    ...options,
  });
  started.push(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  return { app, url: `http://127.0.0.1:${port}`, port, logs };
}

/** Close every server started by {@link startServer}. */
export async function closeAll(): Promise<void> {
  const apps = started.splice(0);
  for (const app of apps) {
    app.server.closeAllConnections();
    await app.close();
  }
}

/** A response read completely. */
export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  json(): any;
}

/** `fetch` (never follows redirects), reading the whole body. */
export async function call(url: string, init: RequestInit = {}): Promise<Reply> {
  const res = await fetch(url, { redirect: 'manual', ...init });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
}

/** POST a JSON value (`Accept: application/json`). */
export function postJson(url: string, body: unknown, headers: Record<string, string> = {}, method = 'POST'): Promise<Reply> {
  return call(url, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** POST an URL-encoded form (`Accept: application/json` unless overridden). */
export function postForm(url: string, pairs: Array<[string, string]>, headers: Record<string, string> = {}): Promise<Reply> {
  return call(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...headers },
    body: new URLSearchParams(pairs).toString(),
  });
}

/** A raw response from `node:http`. */
export interface RawReply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * A request through `node:http`, for what `fetch` hides (declared
 * Content-Length without a body, chunked bodies, exact header control).
 * @param body written then ended; `undefined` ends at once; `null` leaves the request open (headers flushed) until the response comes.
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string | number>; body?: string | Buffer | null },
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.body === null) req.flushHeaders();
    else if (options.body === undefined) req.end();
    else req.end(options.body);
  });
}

/** Poll `condition` every 10 ms until it is truthy or `timeoutMs` passes (then throw). */
export async function waitFor<T>(condition: () => T | undefined | null | false, timeoutMs = 3_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A promise with its resolve function, for handlers the test releases. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
