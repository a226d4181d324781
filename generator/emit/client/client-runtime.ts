/**
 * The fixed part of `generated/client.ts`: options, the error class, and the
 * function that turns a route spec and an input into a `fetch` call and its
 * answer into a value (docs/client.md). Emitted verbatim; it must type-check
 * with only the ES2023 library and `fetch` (no DOM library: the page is
 * reached through `globalThis`).
 */
export const CLIENT_RUNTIME = String.raw`
/** A JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** RFC 9457 problem details, as every error of the API is answered (docs/errors.md) — or built from a group's lists format. */
export interface ProblemDetails {
  type: string;
  /** The HTTP status phrase. */
  title: string;
  status: number;
  detail?: string;
  /** Field name → message, for 400 (a value of the wrong type) and 422 (a rule failed). */
  errors?: Record<string, string>;
  /** Field name → messages, when the route's group answers in the lists format (docs/errors.md "Error formats"); \`errors\` then joins each list. */
  lists?: Record<string, string[]>;
  request_id?: string;
  [member: string]: unknown;
}

/** What a redirect route answers: where the server sends the browser (\`null\` when the browser hides it). */
export interface Redirect {
  location: string | null;
}

/**
 * A failed call: any answer that is not a success (a non-2xx status; for
 * redirect routes, neither 2xx nor 3xx), or a network failure (\`status\` 0).
 * \`isApiError(error, route)\` types \`status\` by the route's answers (\`RouteErrors\`).
 */
export class ApiError<S extends number = number> extends Error {
  /** The HTTP status (0: no answer, e.g. the server is down). */
  readonly status: S;
  /** The problem details of the answer (built from the status when the body was not JSON). */
  readonly problem: ProblemDetails;
  /** The route called, e.g. \`notes.create\`. */
  readonly route: string;
  /** The answer itself, when there was one. */
  readonly response: Response | undefined;

  constructor(route: string, status: number, problem: ProblemDetails, response?: Response, options?: { cause?: unknown }) {
    super(route + ': ' + status + ' ' + problem.title + (problem.detail ? ': ' + problem.detail : ''), options);
    this.name = 'ApiError';
    this.route = route;
    this.status = status as S;
    this.problem = problem;
    this.response = response;
  }

  /** Field name → message (400, 422); \`{}\` when the answer has none. */
  get errors(): Record<string, string> {
    return this.problem.errors ?? {};
  }

  /** 401: the caller must sign in, or send a valid bearer token. */
  get unauthorized(): boolean {
    return this.status === 401;
  }

  /** 403: the token lacks an ability the route needs, or the route's policy refuses the caller (docs/authorization.md). */
  get forbidden(): boolean {
    return this.status === 403;
  }
}

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Where the API is, e.g. \`https://api.example.com\` or \`''\` for the page's own origin in a browser. */
  baseUrl: string;
  /** An API token (\`<id>|<secret>\`), or a function giving the current one; sent as \`Authorization: Bearer …\` (or the scheme of the route's group, e.g. \`Token …\`). */
  token?: string | (() => string | undefined | Promise<string | undefined>);
  /** The fetch to use (default: the global \`fetch\`). */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Headers sent with every call. */
  headers?: Record<string, string>;
  /** Cookies: \`same-origin\` (the default), \`include\` (another origin that allows credentials, docs/http.md "CORS") or \`omit\`. */
  credentials?: 'omit' | 'same-origin' | 'include';
  /**
   * The CSRF token sent as \`X-CSRF-Token\` on calls that change something, or
   * a function giving it. Default: in a browser, the page's
   * \`<meta name="csrf-token">\` (or its first \`_token\` form field); none in Node.
   */
  csrfToken?: string | (() => string | undefined);
}

/** Per-call options. */
export interface CallOptions {
  /** Extra headers for this call. */
  headers?: Record<string, string>;
  /** Abort the call. */
  signal?: AbortSignal;
}

interface RouteSpec {
  route: string;
  method: string;
  path: string;
  path_: [string, string][];
  query: [string, string][];
  headers: [string, string][];
  body: [string, string][];
  encoding: 'none' | 'json' | 'form' | 'multipart';
  answer: 'json' | 'none' | 'redirect' | 'text' | 'response';
  /** The Authorization scheme of the route's group when not Bearer (docs/tokens.md "The scheme of a group"). */
  scheme?: string;
}

type Page = { document?: { querySelector(selector: string): { getAttribute(name: string): string | null } | null } };

/** The CSRF token of the page, in a browser. */
function pageCsrfToken(): string | undefined {
  const page = (globalThis as Page).document;
  if (page === undefined) return undefined;
  const meta = page.querySelector('meta[name="csrf-token"]')?.getAttribute('content');
  return meta || page.querySelector('input[name="_token"]')?.getAttribute('value') || undefined;
}

function text(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

function sender(options: ClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  return async (spec: RouteSpec, fields: object, init?: CallOptions): Promise<unknown> => {
    const input = fields as Record<string, unknown>;
    const name = spec.route;
    let path = spec.path;
    for (const [key, param] of spec.path_) {
      const value = input[key];
      if (value === undefined || value === null) throw new TypeError(name + ' (' + spec.method + ' ' + spec.path + '): the path parameter "' + key + '" is missing');
      path = path.replace('{' + param + '}', encodeURIComponent(text(value)));
    }
    const query = new URLSearchParams();
    for (const [key, param] of spec.query) {
      const value = input[key];
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) query.append(param, text(item));
    }
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    for (const [key, header] of spec.headers) {
      const value = input[key];
      if (value !== undefined && value !== null) headers[header] = Array.isArray(value) ? value.map(text).join(', ') : text(value);
    }
    const token = typeof options.token === 'function' ? await options.token() : options.token;
    if (token) headers['authorization'] = (spec.scheme ?? 'Bearer') + ' ' + token;
    if (spec.method !== 'GET' && spec.method !== 'OPTIONS') {
      const csrf = typeof options.csrfToken === 'function' ? options.csrfToken() : options.csrfToken ?? pageCsrfToken();
      if (csrf) headers['x-csrf-token'] = csrf;
    }
    let body: string | FormData | undefined;
    if (spec.encoding === 'json' || (spec.encoding === 'none' && spec.method !== 'GET' && spec.method !== 'OPTIONS')) {
      // A JSON body (empty for routes without body fields) marks an API call: without a session cookie it needs no CSRF token (docs/csrf.md).
      const json: Record<string, unknown> = {};
      for (const [key, member] of spec.body) if (input[key] !== undefined) json[member] = input[key];
      body = JSON.stringify(json);
      headers['content-type'] = 'application/json';
    } else if (spec.encoding === 'form') {
      const form = new URLSearchParams();
      for (const [key, field] of spec.body) {
        const value = input[key];
        if (value === undefined || value === null) continue;
        for (const item of Array.isArray(value) ? value : [value]) form.append(field, text(item));
      }
      body = form.toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (spec.encoding === 'multipart') {
      const form = new FormData();
      for (const [key, field] of spec.body) {
        const value = input[key];
        if (value === undefined || value === null) continue;
        for (const item of Array.isArray(value) ? value : [value]) form.append(field, item instanceof Blob ? item : text(item));
      }
      body = form;
    }
    const qs = query.toString();
    const url = base + path + (qs ? '?' + qs : '');
    const call = options.fetch ?? fetch;
    let response: Response;
    try {
      response = await call(url, {
        method: spec.method,
        headers: { ...headers, ...init?.headers },
        ...(body !== undefined ? { body } : {}),
        credentials: options.credentials ?? 'same-origin',
        redirect: spec.answer === 'redirect' ? 'manual' : 'follow',
        ...(init?.signal ? { signal: init.signal } : {}),
      });
    } catch (error) {
      throw new ApiError(name, 0, { type: 'about:blank', title: 'Network Error', status: 0, detail: String(error) }, undefined, { cause: error });
    }
    const redirected = response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
    if (spec.answer === 'redirect' && redirected) {
      await response.body?.cancel();
      return { location: response.headers.get('location') };
    }
    if (!response.ok) throw new ApiError(name, response.status, await problemOf(response), response);
    if (spec.answer === 'response') return response;
    if (spec.answer === 'text') return response.text();
    if (spec.answer === 'redirect') {
      await response.body?.cancel();
      return { location: null };
    }
    if (spec.answer === 'none' || response.status === 204) {
      await response.body?.cancel();
      return undefined;
    }
    return response.json();
  };
}

function isLists(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.values(value).every((v) => Array.isArray(v));
}

async function problemOf(response: Response): Promise<ProblemDetails> {
  const type = response.headers.get('content-type') ?? '';
  const body = await response.text();
  if (/json/i.test(type)) {
    try {
      const parsed = JSON.parse(body) as ProblemDetails;
      if (parsed !== null && typeof parsed === 'object' && parsed.title === undefined && isLists(parsed.errors)) {
        // A group's lists format (docs/errors.md "Error formats"): each field's messages joined, the lists kept as \`lists\`.
        const lists = parsed.errors as unknown as Record<string, string[]>;
        const errors: Record<string, string> = {};
        for (const key of Object.keys(lists)) errors[key] = lists[key]!.join(' ');
        return { type: 'about:blank', title: response.statusText || 'Error', status: response.status, errors, lists };
      }
      if (parsed !== null && typeof parsed === 'object') return { ...parsed, status: parsed.status ?? response.status };
    } catch {
      // Not JSON after all: described below.
    }
  }
  return { type: 'about:blank', title: response.statusText || 'Error', status: response.status, ...(body ? { detail: body.slice(0, 500) } : {}) };
}
`.replace(/\\`/g, '`');

/**
 * The part of `generated/client.ts` emitted when the schema has list routes:
 * the page type and the helpers walking every page of a list method.
 */
export const CLIENT_LIST_RUNTIME = String.raw`
/** One page of a list route: rows, and the cursor of the next page (null on the last). */
export interface ListPage<Row> {
  data: Row[];
  next: string | null;
}

/** A list method of the client (\`api.notes.list\`). */
type ListMethod = (input: any, init?: CallOptions) => Promise<ListPage<unknown>>;

/**
 * Every page of a list method, following \`next\` until the last page.
 * @param method a list method of the client, e.g. \`api.notes.list\`.
 * @param input its input (sort, filters, limit); \`cursor\` is set page by page.
 * @example for await (const page of pages(api.notes.list, { sort: 'title' })) console.log(page.data.length);
 */
export async function* pages<M extends ListMethod>(method: M, input: NonNullable<Parameters<M>[0]>, init?: CallOptions): AsyncGenerator<Awaited<ReturnType<M>>, void, undefined> {
  let cursor: string | undefined = (input as { cursor?: string }).cursor;
  for (;;) {
    const page = await method({ ...input, ...(cursor !== undefined ? { cursor } : {}) }, init) as Awaited<ReturnType<M>>;
    yield page;
    if (page.next === null) return;
    cursor = page.next;
  }
}

/**
 * Every row of a list method, page after page.
 * @example for await (const note of rows(api.notes.list, { filter_title: 'Shop' })) console.log(note.title);
 */
export async function* rows<M extends ListMethod>(method: M, input: NonNullable<Parameters<M>[0]>, init?: CallOptions): AsyncGenerator<Awaited<ReturnType<M>>['data'][number], void, undefined> {
  for await (const page of pages(method, input, init)) yield* page.data as Awaited<ReturnType<M>>['data'][number][];
}
`.replace(/\\`/g, '`');

/** The part of \`generated/client.ts\` emitted when the schema has offset lists (docs/schema-language.md "Offset lists"). */
export const CLIENT_OFFSET_RUNTIME = `
/** One page of an offset list route: rows, and how many rows match over every page. */
export interface OffsetPage<Row> {
  data: Row[];
  total: number;
}
`;
