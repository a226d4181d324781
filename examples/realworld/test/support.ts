/** The test kit booted on the app, and a client speaking the specification's JSON. */
import { bootTestKit, TestCaller, type TestClock, type TestKit, type TestResponse } from 'bindery/testing';
import app from '../app/main.js';
import type { Handlers } from '../generated/handlers.js';
import { routes } from '../generated/routes.js';
import type { Database } from '../generated/types.js';

export type Kit = TestKit<Handlers, Database>;

/** Boot the app on a fresh database: `env` on top of the test settings (e.g. `CORS_ORIGINS`), `clock` for the app's time. */
export function boot(options: { env?: Record<string, string>; clock?: TestClock } = {}): Promise<Kit> {
  return bootTestKit<Handlers, Database>(app, { routes, ...options });
}

// biome-ignore lint/suspicious/noExplicitAny: the answers are checked member by member.
type Json = any;

/** One request to `/api<path>`, with a JSON body and the user's token when given. */
export function call(t: Kit, method: string, path: string, body?: unknown, token?: string): Promise<TestResponse<Json>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token !== undefined) headers['authorization'] = `Token ${token}`;
  return new TestCaller(t.url, routes).send<Json>(method, `/api${path}`, {
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** Register `name` (email `<name>@example.com`, password `password`) and return their token. */
export async function register(t: Kit, name: string): Promise<string> {
  const res = await call(t, 'POST', '/users', { user: { username: name, email: `${name}@example.com`, password: 'password' } });
  if (res.status !== 201) throw new Error(`register ${name}: ${res.status} ${res.text}`);
  return res.body.user.token as string;
}

/** Write an article as the token's user; its slug. */
export async function write(t: Kit, token: string, title: string, tagList: string[] = []): Promise<string> {
  const res = await call(
    t,
    'POST',
    '/articles',
    { article: { title, description: `About ${title}`, body: `All of ${title}`, tagList } },
    token,
  );
  if (res.status !== 201) throw new Error(`write ${title}: ${res.status} ${res.text}`);
  return res.body.article.slug as string;
}
