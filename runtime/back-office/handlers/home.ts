/**
 * The back office's home page: each section with its row count (the rows
 * its policy lets the signed-in person view; soft-deleted ones apart).
 */
import type { AnyRouteHandler } from '../../http/handler.js';
import type { RequestContext } from '../../http/context.js';
import { sql } from 'kysely';
import { ownView, type BackOfficeKit } from '../kit.js';
import { databaseOf, scopeOf } from '../row-access.js';
import { wordsOf } from '../words.js';

/** A table of the home page below the sections (`backOffice({ home })`): every cell HTML-escaped. */
export interface HomeTable {
  readonly heading: string;
  /** A line under the heading (`3 users.`). */
  readonly note?: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly (string | number | boolean | null)[])[];
}

/** The handler of `GET <prefix>`; `home` gives more tables. */
export function homeHandler(kit: BackOfficeKit, home?: (ctx: RequestContext) => Promise<readonly HomeTable[]>): AnyRouteHandler {
  return async (_input, ctx) => {
    const db = databaseOf(ctx);
    const counts = [];
    for (const section of kit.sections) {
      let query = db
        .selectFrom(section.table)
        .select(sql<string | number>`count(*)`.as('n'))
        .where(await scopeOf(ctx, section, 'view'));
      if (section.softDelete !== null) query = query.where(section.softDelete, 'is', null);
      const row = await query.executeTakeFirst();
      let trashed = 0;
      if (section.softDelete !== null) {
        const t = await db
          .selectFrom(section.table)
          .select(sql<string | number>`count(*)`.as('n'))
          .where(await scopeOf(ctx, section, 'view'))
          .where(section.softDelete, 'is not', null)
          .executeTakeFirst();
        trashed = Number(t?.n ?? 0);
      }
      counts.push({
        label: section.label,
        href: `${kit.prefix}/${section.path}`,
        rows: Number(row?.n ?? 0),
        trashed,
        softDelete: section.softDelete !== null,
      });
    }
    return kit.page(ownView('home'), {
      title: wordsOf(ctx)('backoffice.title'),
      sections: counts,
      tables: home === undefined ? [] : await home(ctx),
    });
  };
}
