/**
 * Support of the back office's tests: the reference app on a fresh
 * database, an admin's and a member's signed-in browsers, documents made
 * directly, the audit entries of a row, and a form post with repeated
 * fields (the list's checkboxes).
 */
import type { User } from '../../generated/types.js';
import { insertReturning } from '../../runtime/db/portable-writes.js';
import { BROWSER, type Client, type Reply } from '../runtime/auth/support/client.js';
import { bootReferenceApp, makeAccount, signIn, type ReferenceApp } from '../app/tokens-support.js';

/** The app and its people. */
export interface BackOfficeWorld {
  readonly a: ReferenceApp;
  readonly admin: User;
  readonly member: User;
  readonly adminBrowser: Client;
  readonly memberBrowser: Client;
}

/** Boot the reference app (database name prefix `prefix`) with an admin and a member signed in. */
export async function bootWorld(prefix: string): Promise<BackOfficeWorld> {
  const a = await bootReferenceApp(prefix);
  const admin = await makeAccount(a, { name: 'Ada Admin' });
  const member = await makeAccount(a, { name: 'Mo Member' });
  await a.db.updateTable('users').set({ admin: true }).where('id', '=', admin.id).execute();
  const adminBrowser = await signIn(a, admin);
  await adminBrowser.page('/dashboard');
  const memberBrowser = await signIn(a, member);
  await memberBrowser.page('/dashboard');
  return { a, admin, member, adminBrowser, memberBrowser };
}

/** A document inserted directly (not audited), returning its ID. */
export async function insertDocument(
  a: ReferenceApp,
  owner: number,
  fields: { slug: string; title?: string; status?: 'draft' | 'published' | 'archived'; body?: string; deleted?: boolean },
): Promise<number> {
  const row = await insertReturning(a.db, 'documents', {
    owner_id: owner,
    slug: fields.slug,
    title: fields.title ?? fields.slug,
    body: fields.body ?? '',
    status: fields.status ?? 'draft',
    share_token: null,
    ...(fields.deleted ? { deleted_at: new Date() } : {}),
  });
  return Number(row.id);
}

/** The audit entries of a row of `table`, oldest first. */
export async function entriesOf(
  a: ReferenceApp,
  table: string,
  id: number,
): Promise<{ action: string; actor_type: string; actor_id: string; via_kind: string | null; via_name: string | null }[]> {
  const rows = await a.db
    .selectFrom('audit_log' as never)
    .select(['action', 'actor_type', 'actor_id', 'via_kind', 'via_name'] as never)
    .where('subject_type' as never, '=', table as never)
    .where('subject_id' as never, '=', String(id) as never)
    .orderBy('id' as never)
    .execute();
  return rows as never;
}

/** POST a form whose fields may repeat (`[['ids', '1'], ['ids', '2']]`), as a browser, with the client's CSRF token. */
export function postPairs(c: Client, base: string, path: string, pairs: readonly (readonly [string, string])[]): Promise<Reply> {
  const body = new URLSearchParams([['_token', c.token ?? ''], ...pairs.map(([k, v]) => [k, v] as [string, string])]).toString();
  return c.send('POST', path, {
    headers: {
      ...BROWSER,
      'content-type': 'application/x-www-form-urlencoded',
      origin: new URL(base).origin,
      referer: new URL(path, base).toString(),
    },
    body,
  });
}
