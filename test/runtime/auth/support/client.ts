/**
 * A browser-like HTTP client for auth tests: a cookie jar (every cookie a
 * response sets, removed on `Max-Age=0`), the CSRF token of the last page,
 * and a chosen source address (127.0.0.x: every loopback address reaches a
 * server on 127.0.0.1), so throttling per IP address can be tested over real
 * HTTP.
 */
import { request } from 'node:http';
import { parseSetCookie, type SetCookie } from '../../session/support/jar.js';

/** A response, read whole. */
export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
  /** The `Set-Cookie` lines, parsed. */
  readonly cookies: readonly SetCookie[];
  /** `Location`, or `undefined`. */
  readonly location: string | undefined;
  json<T = any>(): T;
}

/** Headers of a browser navigation (a page or a form post). */
export const BROWSER: Readonly<Record<string, string>> = {
  accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-site': 'same-origin',
};

export class Client {
  readonly cookies = new Map<string, string>();
  readonly #base: URL;
  readonly #ip: string;
  /** The CSRF token of the last page read with {@link page}. */
  token: string | undefined;

  /** @param ip source address, 127.0.0.1 by default (any 127.x.y.z works). */
  constructor(base: string, ip = '127.0.0.1') {
    this.#base = new URL(base);
    this.#ip = ip;
  }

  /** A copy of this client's cookies (another browser with the same cookies), optionally from another address. */
  clone(ip = this.#ip): Client {
    const c = new Client(this.#base.toString(), ip);
    for (const [k, v] of this.cookies) c.cookies.set(k, v);
    c.token = this.token;
    return c;
  }

  /** One request; no redirects followed; cookies kept. */
  send(method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size > 0 && headers.cookie === undefined) headers.cookie = [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
    return new Promise((resolve, reject) => {
      const req = request({ host: this.#base.hostname, port: this.#base.port, method, path, headers, localAddress: this.#ip }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const raw = res.headers['set-cookie'] ?? [];
          const cookies = raw.map(parseSetCookie);
          for (const c of cookies) {
            if (c.attributes['max-age'] === '0') this.cookies.delete(c.name);
            else this.cookies.set(c.name, c.value);
          }
          const body = Buffer.concat(chunks).toString('utf8');
          const location = res.headers.location;
          resolve({ status: res.statusCode!, headers: res.headers, body, cookies, location, json: () => JSON.parse(body) });
        });
      });
      req.on('error', reject);
      if (options.body !== undefined) req.write(options.body);
      req.end();
    });
  }

  /** GET a page as a browser and keep its CSRF token. */
  async page(path: string): Promise<Reply> {
    const reply = await this.send('GET', path, { headers: { ...BROWSER } });
    const m = /name="_token" value="([^"]+)"/.exec(reply.body);
    if (m) this.token = m[1];
    return reply;
  }

  /** POST a form as a browser, with the CSRF token of the last page (or the one given). */
  form(path: string, fields: Record<string, string>, options: { referer?: string; token?: string } = {}): Promise<Reply> {
    const body = new URLSearchParams({ _token: options.token ?? this.token ?? '', ...fields }).toString();
    return this.send('POST', path, {
      headers: {
        ...BROWSER,
        'content-type': 'application/x-www-form-urlencoded',
        origin: this.#base.origin,
        referer: new URL(options.referer ?? path, this.#base).toString(),
      },
      body,
    });
  }

  /** POST JSON (an API client: no Origin, so CSRF's origin layer passes; the token still needs the session's). */
  json(method: string, path: string, data: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    return this.send(method, path, {
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        ...(this.token ? { 'x-csrf-token': this.token } : {}),
        ...headers,
      },
      body: JSON.stringify(data),
    });
  }
}
