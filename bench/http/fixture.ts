import { generateAppKey } from '../../runtime/config/app-key.js';
import { startApp } from 'bindery/app';
import type { AuthService } from 'bindery/auth';
import type { ApiTokens } from 'bindery/auth/tokens';
import app from '../../app/main.js';
import { insertReturning } from 'bindery/db';

/** What the bench servers and the load share. */
export interface HttpFixture {
  /** The environment of the bindery server (production settings, the database, one APP_KEY for the whole run). */
  readonly env: Record<string, string>;
  /** `Cookie` header of a signed-in browser: the session and the remember-me cookie. */
  readonly cookie: string;
  /** `Authorization` header value: `Bearer <id>|<secret>`. */
  readonly bearer: string;
  /** The document the token's owner may read. */
  readonly documentId: number;
}

const PASSWORD = 'correct horse battery staple';

/** The reference app's settings in production, on `databaseUrl`. */
export function productionEnv(databaseUrl: string): Record<string, string> {
  return {
    APP_ENV: 'production',
    APP_KEY: generateAppKey(),
    APP_URL: 'https://bench.example.test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    MAIL_DRIVER: 'outbox',
    MAILPROVIDER_WEBHOOK_USER: 'mailprovider',
    MAILPROVIDER_WEBHOOK_PASSWORD: 'bench-webhook-password',
  };
}

function cookiesOf(res: Response, into: Map<string, string>): void {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq).trim();
    const value = pair!.slice(eq + 1).trim();
    if (/max-age=0/i.test(line)) into.delete(name);
    else into.set(name, value);
  }
}

const cookieHeader = (jar: Map<string, string>) => [...jar].map(([n, v]) => `${n}=${v}`).join('; ');

/**
 * Migrate the database and make the fixture (see the module doc).
 * @throws when a step fails (the login, the token).
 */
export async function makeHttpFixture(databaseUrl: string): Promise<HttpFixture> {
  const env = productionEnv(databaseUrl);
  const running = await startApp(app, { env: { ...env, HTTP_ADDR: '127.0.0.1:0' }, migrate: true, handleSignals: false, out: () => {} });
  try {
    const db = running.db;
    const auth = running.services.auth as AuthService;
    const email = 'bench@example.test';
    // insertReturning: the engine's way of reading the new row back (no RETURNING on MySQL).
    const user = (await insertReturning(db, 'users', {
      name: 'Bench User',
      email,
      password: await auth.hashPassword(PASSWORD),
      email_verified_at: new Date(),
    })) as { id: number };
    const document = (await insertReturning(db, 'documents', {
      owner_id: user.id,
      slug: 'bench-document',
      title: 'Bench document',
      body: 'The body of the bench document.',
      status: 'published',
    })) as { id: number };
    const { plain } = await (running.services.apiTokens as ApiTokens).create(String(user.id), {
      name: 'bench',
      abilities: ['documents:read', 'documents:write'],
    });
    for (let i = 0; i < 30; i++) {
      await db
        .insertInto('notes')
        .values({ title: `Note ${i}`, body: 'Some text for the body of the note.', tags: i % 2 === 0 ? ['bench'] : [] })
        .execute();
    }

    // Sign in through the login form, with remember-me, as a browser does.
    const jar = new Map<string, string>();
    const form = await fetch(`${running.url}/login`, { headers: { accept: 'text/html' } });
    cookiesOf(form, jar);
    const token = /name="_token" value="([^"]+)"/.exec(await form.text())?.[1];
    if (token === undefined) throw new Error('the login page has no CSRF token');
    const login = await fetch(`${running.url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'text/html',
        cookie: cookieHeader(jar),
        origin: new URL(running.url).origin,
      },
      body: new URLSearchParams({ _token: token, email, password: PASSWORD, remember: 'on' }).toString(),
    });
    cookiesOf(login, jar);
    if (login.status !== 303 || login.headers.get('location') !== '/dashboard')
      throw new Error(`the bench login failed: ${login.status} ${await login.text()}`);
    if (jar.size < 2) throw new Error(`the bench login set ${jar.size} cookie(s), expected the session and remember-me cookies`);
    return { env, cookie: cookieHeader(jar), bearer: `Bearer ${plain}`, documentId: document.id };
  } finally {
    await running.close();
  }
}

/**
 * The signed-in cookies as a browser holds them now: the session cookie is
 * rewritten when it is older than a tenth of its lifetime (its last use is
 * refreshed), and a browser sends the new one from then on. The bench does
 * the same before each round, so it measures the ordinary signed-in request,
 * not one that rewrites the cookie every time.
 */
export async function currentCookies(baseUrl: string, f: HttpFixture): Promise<HttpFixture> {
  const jar = new Map(
    f.cookie.split('; ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as [string, string]),
  );
  const res = await fetch(`${baseUrl}/dashboard`, { headers: { accept: 'text/html', cookie: f.cookie }, redirect: 'manual' });
  await res.text();
  if (res.status !== 200) throw new Error(`the signed-in bench page answered ${res.status}`);
  cookiesOf(res, jar);
  return { ...f, cookie: cookieHeader(jar) };
}
