/**
 * A one-cookie jar for session tests: keeps the session cookie a response
 * sets (or removes, on `Max-Age=0`) and sends it back, like a browser.
 */

/** One `Set-Cookie` line, parsed. */
export interface SetCookie {
  readonly name: string;
  readonly value: string;
  /** Attribute names in lower case → value ('' for flags). */
  readonly attributes: Readonly<Record<string, string>>;
}

/** Parse a `Set-Cookie` line. */
export function parseSetCookie(line: string): SetCookie {
  const [pair, ...attrs] = line.split(';').map((p) => p.trim());
  const eq = pair!.indexOf('=');
  const attributes: Record<string, string> = {};
  for (const a of attrs) {
    const i = a.indexOf('=');
    attributes[(i === -1 ? a : a.slice(0, i)).toLowerCase()] = i === -1 ? '' : a.slice(i + 1);
  }
  return { name: pair!.slice(0, eq), value: pair!.slice(eq + 1), attributes };
}

/** Every `Set-Cookie` of a response, parsed. */
export function setCookies(res: Response): SetCookie[] {
  return res.headers.getSetCookie().map(parseSetCookie);
}

/** Keeps cookies by name. */
export class Jar {
  readonly cookies = new Map<string, string>();

  /** The `Cookie` header to send, or `undefined` when empty. */
  header(): string | undefined {
    if (this.cookies.size === 0) return undefined;
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }

  /** Take the cookies a response sets. */
  update(res: Response): void {
    for (const c of setCookies(res)) {
      if (c.attributes['max-age'] === '0') this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  /** The value of one cookie. */
  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** `fetch` with the jar's cookies (no redirects followed), updating the jar from the response. */
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.header();
    if (cookie !== undefined && !headers.has('cookie')) headers.set('cookie', cookie);
    const res = await fetch(url, { redirect: 'manual', ...init, headers });
    this.update(res);
    return res;
  }
}
