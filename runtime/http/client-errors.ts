/**
 * Errors Node's HTTP parser raises before (or while) Fastify sees a request:
 * the request deadline (`HTTP_BODY_TIMEOUT`, headers timeout), a malformed
 * request line or header (`Content-Length: abc`, both `Content-Length` and
 * `Transfer-Encoding`), headers too large. Node hands them to the server's
 * `clientError` listener with the bare socket; this one writes a complete
 * response — problem details, or the HTML error page when the request in
 * flight came from a browser — with the security headers, a request ID and
 * `Connection: close`, then closes the socket (docs/http.md "Deadlines and
 * malformed requests").
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { errorPageHtml } from '../errors/html-page.js';
import { PROBLEM_CONTENT_TYPE, problemDetails } from '../errors/problem-details.js';
import { statusPhrase } from '../errors/status.js';
import { formatDuration } from '../support/duration.js';
import { decideClientKind } from './client-kind.js';
import { REQUEST_ID_HEADER, requestIdFor } from './request-id.js';
import type { HeaderPair } from './security-headers.js';

/** What {@link clientErrorHandler} needs to know about the server. */
export interface ClientErrorEnv {
  /** The security headers of every response. */
  readonly headers: readonly HeaderPair[];
  /** The deadline for a whole request, in milliseconds (named in the 408). */
  readonly bodyTimeoutMs: number;
  /** The deadline for the request line and headers, in milliseconds (named in the 408). */
  readonly headersTimeoutMs: number;
  /** Where to log (at `info`: these are the client's doing). */
  readonly log: FastifyBaseLogger;
}

interface Answer {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
}

/** The status, code and text for a parser error `code`. */
function answerFor(code: string | undefined, env: ClientErrorEnv, headersDone: boolean): Answer {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return headersDone
        ? {
            status: 408,
            code: 'BINDERY_BODY_TIMEOUT',
            detail: `The request body did not arrive within ${formatDuration(env.bodyTimeoutMs)} (HTTP_BODY_TIMEOUT); the connection is closed.`,
          }
        : {
            status: 408,
            code: 'BINDERY_HEADERS_TIMEOUT',
            detail: `The request headers did not arrive within ${formatDuration(env.headersTimeoutMs)} (HTTP_HEADERS_TIMEOUT); the connection is closed.`,
          };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'BINDERY_HEADERS_TOO_LARGE', detail: 'The request headers are too large.' };
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return { status: 400, code: 'BINDERY_MALFORMED_REQUEST', detail: 'The Content-Length header is not valid for this request.' };
    default:
      return { status: 400, code: 'BINDERY_MALFORMED_REQUEST', detail: 'The request is not valid HTTP/1.1.' };
  }
}

/**
 * The server's `clientError` listener (Fastify's `clientErrorHandler`).
 * A reset connection, a destroyed socket, or a response already under way is
 * only closed; otherwise the answer is written raw on the socket and the
 * socket is destroyed. Never throws.
 */
export function clientErrorHandler(env: ClientErrorEnv): (error: Error & { code?: string }, socket: Socket) => void {
  return function onClientError(error, socket) {
    try {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? null;
      if (!socket.writable || inFlight?.headersSent) {
        socket.destroy();
        return;
      }
      const req: IncomingMessage | undefined = (inFlight as (ServerResponse & { req?: IncomingMessage }) | null)?.req;
      const answer = answerFor(error.code, env, req !== undefined);
      const raw = rawErrorResponse(req, answer.status, answer.detail, env.headers);
      const requestId = raw.headers[REQUEST_ID_HEADER]!;
      const lines = [
        `HTTP/1.1 ${answer.status} ${statusPhrase(answer.status)}`,
        ...Object.entries(raw.headers).map(([name, value]) => `${name}: ${value}`),
      ];
      env.log.info(
        { reqId: requestId, res: { statusCode: answer.status }, code: answer.code, err: error },
        `request refused before routing: ${answer.detail}`,
      );
      socket.end(`${lines.join('\r\n')}\r\n\r\n${raw.body}`);
      // A client that never reads its answer does not keep the socket.
      setTimeout(() => socket.destroy(), 1000).unref();
    } catch {
      socket.destroy();
    }
  };
}

/**
 * An error response written without Fastify (no reply object): problem
 * details, or the HTML error page when `req` came from a browser; the
 * security headers, a request ID (the incoming one when valid) and
 * `Connection: close`. Never throws.
 * @param req the request, when its headers were read.
 */
export function rawErrorResponse(
  req: IncomingMessage | undefined,
  status: number,
  detail: string,
  security: readonly HeaderPair[],
): { headers: Record<string, string>; body: string } {
  const requestId = requestIdFor(req ?? ({ headers: {} } as IncomingMessage));
  const kind = req === undefined ? undefined : decideClientKind(req.headers);
  const html = kind !== undefined && !kind.wantsJson && kind.isBrowser;
  const body = html ? errorPageHtml({ status, detail, requestId }) : JSON.stringify(problemDetails(status, detail, requestId));
  const headers: Record<string, string> = {
    'content-type': `${html ? 'text/html' : PROBLEM_CONTENT_TYPE}; charset=utf-8`,
    'content-length': String(Buffer.byteLength(body)),
    [REQUEST_ID_HEADER]: requestId,
  };
  for (const [name, value] of security) headers[name] = value;
  headers.connection = 'close';
  return { headers, body };
}

/** `detail` of the 503 sent while the server shuts down. */
export const SHUTTING_DOWN_DETAIL = 'The server is shutting down; send the request again (another instance will take it).';

/**
 * Answer a request that arrived while the server drains for shutdown: 503
 * with `Retry-After: 1`, rendered like every error (Fastify's own answer is
 * a bare JSON body). Never throws.
 */
export function answerShuttingDown(req: IncomingMessage, res: ServerResponse, security: readonly HeaderPair[]): void {
  try {
    const raw = rawErrorResponse(req, 503, SHUTTING_DOWN_DETAIL, security);
    res.writeHead(503, { ...raw.headers, 'retry-after': '1' });
    res.end(raw.body);
  } catch {
    res.destroy();
  }
}
