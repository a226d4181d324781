/**
 * Signing in from the test kit (docs/testing.md): with a login form, past a
 * second factor, and with a passkey.
 */
import type { AuthService } from '../auth/auth-service.js';
import type { TwoFactor } from '../auth/two-factor/two-factor.js';
import type { RouteTable } from '../routing/route-table.js';
import { TestCaller, type TestResponse } from './caller.js';
import type { TestPasskey } from './passkey-authenticator.js';

/** Who `TestKit.signIn` signs in: an email and the plain password (a user row with its password added will do). */
export interface SignInUser {
  readonly email: string;
  readonly password: string;
  readonly remember?: boolean;
}

/** Options of `TestKit.signIn` with a user. */
export interface SignInOptions {
  /** Pass the second factor with a code computed from the account's secret. */
  readonly totp?: boolean;
  /** Pass the second factor with this recovery code. */
  readonly recoveryCode?: string;
  /** The login route (default `accounts.login`). */
  readonly loginRoute?: string;
  /** The login page read for the CSRF token (default `/login`). */
  readonly page?: string;
  /** The two-factor route (default `twoFactor.challenge`). */
  readonly challengeRoute?: string;
}

/** Route names of the passkey flows (defaults: the reference app's). */
export interface PasskeyRoutes {
  readonly options?: string;
  readonly store?: string;
  readonly confirm?: string;
  readonly loginOptions?: string;
  readonly login?: string;
}

/** The page read after a sign-in for the new session's CSRF token when the answer names none. */
const HOME = '/dashboard';

/** What the sign-ins read of the booted app. */
interface Booted {
  readonly url: string;
  readonly running: { readonly services: object };
}

// biome-ignore lint/suspicious/noExplicitAny: the kit calls routes by name whatever the app's handler map; the names are checked at run time.
type AnyCaller = TestCaller<any>;

/** A browser signed in by posting `credentials` to `loginRoute` as a form, after reading `page` for the CSRF token. */
export async function signInWith<H>(
  booted: Booted,
  routes: RouteTable,
  loginRoute: string,
  credentials: Record<string, unknown>,
  page: string,
): Promise<TestCaller<H>> {
  const browser = new TestCaller<H>(booted.url, routes, { browser: true });
  await browser.send('GET', page, { headers: { accept: 'text/html' } });
  const res = await (browser as AnyCaller).request(loginRoute, credentials, { form: true });
  const back = res.location !== undefined && new URL(res.location, booted.url).pathname === new URL(page, booted.url).pathname;
  if (res.status < 300 || res.status >= 400 || back) {
    throw new Error(
      `bindery/testing: sign-in through "${loginRoute}" failed: ${res.status}${back ? ` back to ${page}` : ''} (wrong credentials, unverified, or throttled?)`,
    );
  }
  return browser;
}

/** `t.signIn(user, { totp: true })`: the password, then the second factor. */
export async function signInPastSecondFactor<H>(
  booted: Booted,
  routes: RouteTable,
  user: SignInUser,
  options: SignInOptions,
): Promise<TestCaller<H>> {
  const loginRoute = options.loginRoute ?? 'accounts.login';
  const browser = await signInWith<H>(
    booted,
    routes,
    loginRoute,
    { email: user.email, password: user.password, ...(user.remember === undefined ? {} : { remember: user.remember }) },
    options.page ?? '/login',
  );
  if (options.totp !== true && options.recoveryCode === undefined) {
    await (browser as AnyCaller).page(HOME); // the new session's CSRF token
    return browser;
  }
  const services = booted.running.services as { auth?: AuthService; twoFactor?: TwoFactor };
  if (services.twoFactor === undefined || services.auth === undefined) {
    throw new Error('bindery/testing: signIn with totp needs the twoFactor() and auth() setup steps in the app.');
  }
  const account = await services.auth.users.findByLogin(user.email);
  if (account === null) throw new Error(`bindery/testing: no account has the login ${user.email}.`);
  let input: Record<string, string>;
  if (options.recoveryCode !== undefined) input = { recovery_code: options.recoveryCode };
  else {
    const code = await services.twoFactor.nextCode(services.auth.users.idOf(account));
    if (code === null)
      throw new Error(`bindery/testing: ${user.email} has no two-factor secret (or every code of this time window was used).`);
    input = { code };
  }
  const caller = browser as AnyCaller;
  const challenge = caller.lastPage === undefined ? undefined : new URL(caller.lastPage).pathname;
  await caller.page('/two-factor-challenge');
  const res = await caller.request(options.challengeRoute ?? 'twoFactor.challenge', input, { form: true });
  const back = res.location !== undefined && new URL(res.location, booted.url).pathname === '/two-factor-challenge';
  if (res.status !== 303 || back) {
    throw new Error(
      `bindery/testing: the second factor of ${user.email} was refused: ${res.status}${back ? ' back to the challenge' : ''} (${challenge ?? ''})`,
    );
  }
  await caller.page(res.location ?? HOME); // the new session's CSRF token
  return browser;
}

/** `t.registerPasskey(browser, key)`: options, the software authenticator's answer, the registration. */
export async function registerPasskey(
  browser: AnyCaller,
  key: TestPasskey,
  options: { readonly name?: string; readonly password?: string; readonly routes?: PasskeyRoutes },
): Promise<TestResponse> {
  const r = options.routes ?? {};
  let offer = await browser.request(r.options ?? 'passkeys.options', {});
  if (offer.status === 423 && options.password !== undefined) {
    const confirmed = await browser.request(r.confirm ?? 'confirm.store', { password: options.password });
    if (confirmed.status !== 201)
      throw new Error(`bindery/testing: the password confirmation was refused: ${confirmed.status} ${confirmed.text}`);
    offer = await browser.request(r.options ?? 'passkeys.options', {});
  }
  if (offer.status !== 200) throw new Error(`bindery/testing: passkey registration options refused: ${offer.status} ${offer.text}`);
  const res = await browser.request(r.store ?? 'passkeys.store', {
    name: options.name ?? 'Test passkey',
    credential: key.create(offer.body as never),
  });
  if (res.status !== 201) throw new Error(`bindery/testing: passkey registration refused: ${res.status} ${res.text}`);
  return res;
}

/** `t.signInWithPasskey(key)`: options and the assertion, in a fresh browser. */
export async function signInWithPasskey<H>(
  browser: TestCaller<H>,
  key: TestPasskey,
  options: { readonly routes?: PasskeyRoutes },
): Promise<TestCaller<H>> {
  const r = options.routes ?? {};
  const caller = browser as AnyCaller;
  await caller.page('/login');
  const offer = await caller.request(r.loginOptions ?? 'passkeys.loginOptions', {});
  if (offer.status !== 200) throw new Error(`bindery/testing: passkey sign-in options refused: ${offer.status} ${offer.text}`);
  const res = await caller.request(r.login ?? 'passkeys.login', { credential: key.get(offer.body as never) });
  if (res.status !== 200) throw new Error(`bindery/testing: passkey sign-in refused: ${res.status} ${res.text}`);
  await caller.page((res.body as { redirect?: string }).redirect ?? HOME); // the new session's CSRF token
  return browser;
}
