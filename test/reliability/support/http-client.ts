/**
 * A plain HTTP/1.1 client for the fuzz and cookie suites: any method, any
 * header, bodies as given, a small pool of keep-alive sockets; a reset or
 * other socket error comes back as status 0 (never thrown).
 */
import { Agent, request } from 'node:http';

export interface RawReply {
  /** HTTP status, or 0 when the connection failed (reset, refused, closed without an answer). */
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
  /** The socket error of a failed request. */
  readonly error?: string;
}

export interface RawRequest {
  readonly method: string;
  /** Path and query, sent as is (it must be valid on a request line: no spaces or control characters). */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
}

/** A client of `base` with up to `sockets` keep-alive connections. Close it with `close()`. */
export function httpClient(base: string, sockets = 8): { send(req: RawRequest): Promise<RawReply>; close(): void } {
  const url = new URL(base);
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  return {
    send(req) {
      return new Promise((resolve) => {
        const headers: Record<string, string> = { ...req.headers };
        if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
        let r: ReturnType<typeof request>;
        try {
          r = request({ host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('error', (e) => resolve({ status: 0, headers: {}, body: '', error: e.message }));
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
          });
        } catch (error) {
          // The request could not even be written (an invalid header value): not the server's doing.
          resolve({ status: -1, headers: {}, body: '', error: (error as Error).message });
          return;
        }
        r.on('error', (e) => resolve({ status: 0, headers: {}, body: '', error: e.message }));
        if (req.body !== undefined) r.write(req.body);
        r.end();
      });
    },
    close: () => agent.destroy(),
  };
}
