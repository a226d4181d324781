/**
 * Support of part B's app tests (tokens, links, external sign-in, the
 * documents API): the reference app on a fresh database, users, signed-in
 * browsers, the outbox, and bearer tokens made through the app's own token
 * service (docs/tokens.md).
 */
import type { User } from '../../generated/types.js';
import type { TestApp } from '../../runtime/app/index.js';
import type { AccountLinks } from '../../runtime/auth/links/index.js';
import type { ApiTokens } from '../../runtime/auth/tokens/index.js';
import { RESET_MAIL_JOB } from '../../runtime/auth/links/reset-mail-job.js';
import { jobsRuntimeOf } from '../../runtime/jobs/jobs-runtime.js';
import { readOutbox, type OutboxMessage } from '../../runtime/mail/index.js';
import { waitFor } from '../runtime/jobs/wait-for.js';
import { jobsNamed } from '../runtime/jobs/jobs-named.js';
import { Client } from '../runtime/auth/support/client.js';
import { bootAccounts, clearCache, makeUser, type AccountsApp } from './accounts-support.js';
import { insertIfAbsent, updateReturning } from '../../runtime/db/portable-writes.js';

const made = new WeakMap<object, Map<string, string>>();

/** The abilities the documents API asks of a token (the policy documents in schema/documents.yaml). */
export const DOCUMENT_ABILITIES: readonly string[] = ['documents:read', 'documents:write'];

/**
 * The plain token (`<id>|<secret>`) of user `userId`, creating the user
 * (`users` row with that ID, email `user<id>@example.test`) and the token on
 * first use; the same token afterwards for the same app and abilities
 * (default: those of the documents API).
 */
export async function bearerFor(t: TestApp<any>, userId: number, abilities: readonly string[] = DOCUMENT_ABILITIES): Promise<string> {
  let byUser = made.get(t);
  if (byUser === undefined) made.set(t, (byUser = new Map()));
  const key = `${userId}:${[...abilities].sort().join(',')}`;
  const known = byUser.get(key);
  if (known !== undefined) return known;
  await insertIfAbsent(
    t.db,
    'users',
    { id: userId, name: `User ${userId}`, email: `user${userId}@example.test`, password: '!unusable' },
    { conflict: ['id'] },
  );
  const apiTokens = t.running.services.apiTokens as ApiTokens;
  const { plain } = await apiTokens.create(String(userId), { name: `test token of ${userId}`, abilities });
  byUser.set(key, plain);
  return plain;
}

/**
 * A JSON call of the app at `baseUrl` as user `userId` (its bearer token,
 * {@link bearerFor}, no session): the status and the parsed body
 * (`undefined` for an empty one).
 */
export async function bearerCall(
  t: TestApp<any>,
  baseUrl: string,
  userId: number,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${await bearerFor(t, userId)}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

// ── the reference app for part B's app tests (tokens, links, oauth) ──

/** The reference app booted on a fresh database (test/app/accounts-support.ts), with part B's services. */
export interface ReferenceApp extends AccountsApp {
  readonly apiTokens: ApiTokens;
  readonly links: AccountLinks;
}

/** Boot `app/main.ts` on a fresh database (extra settings in `env`). */
export async function bootReferenceApp(prefix: string, env: Record<string, string> = {}): Promise<ReferenceApp> {
  const a = await bootAccounts(prefix, env);
  return { ...a, apiTokens: a.t.running.services.apiTokens as ApiTokens, links: a.t.running.services.accountLinks as AccountLinks };
}

/** A user made in the table (password hashed by the app), optionally with a verified address. */
export async function makeAccount(
  a: ReferenceApp,
  fields: { email?: string; password?: string; verified?: boolean; name?: string } = {},
): Promise<User> {
  const user = await makeUser(a, fields);
  if (!fields.verified) return user;
  return (await updateReturning(a.db, 'users', user.id, { email_verified_at: new Date() }))!;
}

/** A browser signed in through the login form. */
export async function signIn(a: ReferenceApp, user: User, password = 'correct horse battery', remember = false): Promise<Client> {
  const c = new Client(a.url);
  await c.page('/login');
  const res = await c.form('/login', { email: user.email, password, ...(remember ? { remember: 'true' } : {}) });
  if (res.status !== 303 || res.location !== '/dashboard')
    throw new Error(`login of ${user.email} failed: ${res.status} ${res.location ?? ''}`);
  return c;
}

/** Start the app's worker in the test process (as `npm start` does), so queued mails are sent; the app's close stops it. */
export async function startWorker(a: ReferenceApp): Promise<void> {
  await jobsRuntimeOf(a.t.running.services)!.startWorker({ pollIntervalMs: 100 });
}

/** Wait (5 s at most) until no password reset mail job is left in the queue: every one queued so far has run. */
export async function resetMailsSent(a: ReferenceApp): Promise<void> {
  await waitFor(async () => (await jobsNamed(a.t.running.services, a.db, RESET_MAIL_JOB)) === 0, 'the queued password reset mails');
}

/** The newest mail to `email` in the outbox. */
export async function newestMail(a: ReferenceApp, email: string): Promise<OutboxMessage | undefined> {
  return (await readOutbox(a.db, { to: email, limit: 1 }))[0];
}

/** The path and query of an absolute link (tests reach the app on its own port, not APP_URL's). */
export function pathOf(link: string): string {
  const u = new URL(link);
  return `${u.pathname}${u.search}`;
}

/** Forget cached counters (rate limits, throttles) between tests. */
export const clearCounters: (a: ReferenceApp) => Promise<void> = clearCache;
