/**
 * A test caller (docs/testing.md): requests by route name over real HTTP,
 * as an API client, a browser with a cookie jar and CSRF token, or a bearer
 * token holder.
 */
import type { RouteDefinition, RouteTable } from '../routing/route-table.js';
import type { JsonResult } from '../results/result.js';
import type { RouteHandler } from '../http/handler.js';

/** The input type of a route handler. */
export type InputOf<H> = H extends RouteHandler<infer I, unknown, never> ? I : never;
/** The JSON body a route's handler declares (its output type); `unknown` for pages, redirects and no content. */
export type BodyOf<H> = H extends RouteHandler<never, infer R, never> ? OrUnknown<R extends JsonResult<infer T> ? T : never> : unknown;
type OrUnknown<T> = [T] extends [never] ? unknown : T;

/** A response, read whole. */
export interface TestResponse<B = unknown> {
  readonly status: number;
  readonly headers: Headers;
  /** The parsed JSON body when the response is JSON (`application/json`, `application/problem+json`), else the text. */
  readonly body: B;
  /** The body as text. */
  readonly text: string;
  /** `Location`, or `undefined`. */
  readonly location: string | undefined;
}

/** Options of one request. */
export interface RequestOptions {
  /** Extra request headers (they win over the caller's). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Send the input as an HTML form (urlencoded, with the CSRF token of the last page) instead of JSON. */
  readonly form?: boolean;
}

/** Calls routes of a running app by name. `H` is the app's generated `Handlers`. */
export class TestCaller<H> {
  readonly #base: string;
  readonly #routes: ReadonlyMap<string, RouteDefinition>;
  readonly #headers: Record<string, string>;
  /** Cookies kept between requests (a browser); none for an API client. */
  readonly cookies: Map<string, string> | undefined;
  /** The CSRF token of the last HTML page read (sent with forms and JSON). */
  csrfToken: string | undefined;
  /** The URL of the last HTML page read: the `Referer` of forms, where a failed form goes back to. */
  lastPage: string | undefined;

  /**
   * @param base the app's URL, `http://127.0.0.1:<port>`.
   * @param routes the generated route table.
   * @param options.headers headers of every request (e.g. `authorization`).
   * @param options.browser keep cookies and the CSRF token (a signed-in browser).
   */
  constructor(base: string, routes: RouteTable, options: { headers?: Record<string, string>; browser?: boolean } = {}) {
    this.#base = base;
    this.#routes = new Map(routes.map((r) => [r.name, r]));
    this.#headers = { ...options.headers };
    this.cookies = options.browser ? new Map() : undefined;
  }

  /**
   * Call route `name` with `input`: path parameters fill the path, the rest
   * goes in the query string (GET, DELETE without body fields) or the body
   * (JSON, or a form with `options.form`). Redirects are not followed.
   *
   * @throws {Error} for an unknown route name or a missing path parameter.
   * @example const res = await t.request('notes.create', { title: 'x' }); res.status === 201; res.body.id
   */
  async request<K extends keyof H & string>(
    name: K,
    input?: Partial<InputOf<H[K]>> & Record<string, unknown>,
    options: RequestOptions = {},
  ): Promise<TestResponse<BodyOf<H[K]>>> {
    const route = this.#routes.get(name);
    if (route === undefined) throw new Error(`bindery/testing: no route named "${name}"`);
    const values: Record<string, unknown> = { ...(input ?? {}) };
    const path = route.path.replace(/\{([^}]+)\}/g, (_, param: string) => {
      const field = route.fields.find((f) => f.source === 'path' && (f.name === param || f.key === param));
      const key = field?.key ?? param;
      const value = values[key] ?? values[param];
      if (value === undefined) throw new Error(`bindery/testing: route "${name}" needs path parameter "${param}"`);
      delete values[key];
      delete values[param];
      return encodeURIComponent(String(value));
    });
    const query = new URLSearchParams();
    const body: Record<string, unknown> = {};
    const headers: Record<string, string> = { ...this.#headers };
    for (const [key, value] of Object.entries(values)) {
      const field = route.fields.find((f) => f.key === key || f.name === key);
      const wire = field?.name ?? key;
      if (field?.source === 'header') headers[wire.toLowerCase()] = String(value);
      else if (field?.source === 'query' || (field === undefined && route.method === 'GET')) {
        for (const v of Array.isArray(value) ? value : [value]) query.append(wire, String(v));
      } else body[wire] = value;
    }
    const hasBody = route.method !== 'GET' && (Object.keys(body).length > 0 || route.method !== 'DELETE' || options.form === true);
    let payload: string | undefined;
    if (hasBody && options.form) {
      const form = new URLSearchParams();
      if (this.csrfToken !== undefined) form.append('_token', this.csrfToken);
      for (const [k, v] of Object.entries(body)) for (const item of Array.isArray(v) ? v : [v]) form.append(k, String(item));
      payload = form.toString();
      const origin = new URL(this.#base).origin;
      Object.assign(headers, {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'text/html',
        origin,
        referer: this.lastPage ?? new URL(path, this.#base).toString(),
      });
    } else if (hasBody || route.method === 'DELETE') {
      payload = JSON.stringify(body);
      Object.assign(headers, { 'content-type': 'application/json', accept: 'application/json' });
      if (this.csrfToken !== undefined) headers['x-csrf-token'] = this.csrfToken;
    } else {
      headers['accept'] ??= route.result === 'page' ? 'text/html' : 'application/json';
    }
    const search = query.size > 0 ? `?${query}` : '';
    return this.send(route.method, `${path}${search}`, {
      headers: { ...headers, ...options.headers },
      ...(payload === undefined ? {} : { body: payload }),
    });
  }

  /**
   * Read `path` as a browser navigation (`GET`, `Accept: text/html`; no
   * redirects followed): its CSRF token is remembered and it becomes the
   * page a form goes back to.
   * @example const login = await browser.page('/login'); login.status === 200; login.text
   */
  page(path: string, options: { headers?: Record<string, string> } = {}): Promise<TestResponse<string>> {
    return this.send<string>('GET', path, { headers: { accept: 'text/html', ...options.headers } });
  }

  /**
   * One raw request to `path` (no redirects followed; cookies kept for a
   * browser). An HTML response's CSRF token (`name="_token"`, or the
   * `csrf-token` meta tag) is remembered.
   */
  async send<B = unknown>(
    method: string,
    path: string,
    options: { headers?: Record<string, string>; body?: string } = {},
  ): Promise<TestResponse<B>> {
    const headers: Record<string, string> = { ...this.#headers, ...options.headers };
    if (this.cookies !== undefined && this.cookies.size > 0) headers['cookie'] = [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
    const res = await fetch(new URL(path, this.#base), {
      method,
      headers,
      redirect: 'manual',
      ...(options.body === undefined ? {} : { body: options.body }),
    });
    if (this.cookies !== undefined) {
      for (const line of res.headers.getSetCookie()) {
        const [pair = '', ...attributes] = line.split(';');
        const at = pair.indexOf('=');
        const name = pair.slice(0, at).trim();
        const expired = attributes.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a));
        if (expired) this.cookies.delete(name);
        else this.cookies.set(name, pair.slice(at + 1).trim());
      }
    }
    const text = await res.text();
    const type = res.headers.get('content-type') ?? '';
    if (type.startsWith('text/html')) {
      if (method === 'GET') this.lastPage = new URL(path, this.#base).toString();
      const token = /name="_token" value="([^"]+)"/.exec(text)?.[1] ?? /<meta name="csrf-token" content="([^"]+)"/.exec(text)?.[1];
      if (token !== undefined) this.csrfToken = token;
    }
    const body = /^application\/(problem\+)?json/.test(type) && text !== '' ? (JSON.parse(text) as B) : (text as B);
    return { status: res.status, headers: res.headers, body, text, location: res.headers.get('location') ?? undefined };
  }
}
