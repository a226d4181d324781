/**
 * The reference app's back office (docs/back-office.md): its sections come
 * from the schema (`backOffice:` on each tracked resource,
 * generated/back-office.ts); its home page also lists the newest users.
 */
import type { RequestContext } from 'bindery/http';
import type { HomeTable } from 'bindery/back-office';

/** How many users the back office's home page lists (newest first). */
export const HOME_USERS = 500;

/** The home page's users table: the newest {@link HOME_USERS}, with the total. */
export async function newestUsers(ctx: RequestContext): Promise<readonly HomeTable[]> {
  const db = ctx.services.db;
  const users = await db.selectFrom('users').selectAll().orderBy('id', 'desc').limit(HOME_USERS).execute();
  const count = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const total = Number(count.n);
  return [
    {
      heading: 'Users',
      note: `${total} user${total === 1 ? '' : 's'}${total > users.length ? `, the newest ${users.length} shown` : ''}.`,
      columns: ['ID', 'Name', 'Email', 'Verified', 'Admin'],
      rows: users.map((u) => [u.id, u.name, u.email, u.email_verified_at !== null, u.admin]),
    },
  ];
}
