/**
 * The rows of a section the signed-in person may see and act on: its
 * resource's policy (docs/authorization.md) narrows every read and every
 * write of the back office, on top of the back office's own access rule.
 */
import type { RequestContext } from '../http/context.js';
import type { RowScope } from '../authorization/scopes.js';
import type { AnyKysely } from '../db/any-kysely.js';
import { ALL_ROWS } from '../authorization/scopes.js';
import type { SectionConfig } from './sections.js';

/** The row actions the back office checks. */
export type RowAction = 'view' | 'update' | 'delete' | 'restore' | 'create';

interface PolicyRequest {
  scope(action: string): Promise<RowScope>;
  can(action: string, row?: object): Promise<boolean>;
}

/** The condition the section's policy puts on its rows for `action` (every row when it has no policy). */
export async function scopeOf(ctx: RequestContext, section: SectionConfig, action: RowAction): Promise<RowScope> {
  if (section.policy === null) return ALL_ROWS;
  return (ctx as unknown as PolicyRequest).scope(`${section.policy}.${action}`);
}

/** May the signed-in person do `action` to `row` (or, without a row, to some row)? Always, without a policy. */
export async function mayDo(ctx: RequestContext, section: SectionConfig, action: RowAction, row?: object): Promise<boolean> {
  if (section.policy === null) return true;
  return (ctx as unknown as PolicyRequest).can(`${section.policy}.${action}`, row);
}

/** The app's database, untyped (tables are named at run time). */
export function databaseOf(ctx: RequestContext): AnyKysely {
  return (ctx.services as unknown as { db: AnyKysely }).db;
}
