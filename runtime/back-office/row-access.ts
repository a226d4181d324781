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

/** The row actions the back office checks (`forceDelete` is the policy's `delete` when it has no `forceDelete`). */
export type RowAction = 'view' | 'update' | 'delete' | 'restore' | 'create' | 'forceDelete';

interface PolicyRequest {
  scope(action: string): Promise<RowScope>;
  can(action: string, row?: object): Promise<boolean>;
}

/**
 * The policy action of `action` on the section's rows, or null when nothing
 * but the back office's own rule decides: the resource has no policy, or
 * its policy has no such action.
 */
function policyAction(ctx: RequestContext, section: SectionConfig, action: RowAction): string | null {
  if (section.policy === null) return null;
  const policies = (ctx.services as { policies?: { has(name: string): boolean } }).policies;
  if (policies === undefined) return null;
  const named = `${section.policy}.${action}`;
  if (policies.has(named)) return named;
  if (action === 'forceDelete' && policies.has(`${section.policy}.delete`)) return `${section.policy}.delete`;
  return null;
}

/** The condition the section's policy puts on its rows for `action` (every row when no policy action decides it). */
export async function scopeOf(ctx: RequestContext, section: SectionConfig, action: RowAction): Promise<RowScope> {
  const named = policyAction(ctx, section, action);
  return named === null ? ALL_ROWS : (ctx as unknown as PolicyRequest).scope(named);
}

/** May the signed-in person do `action` to `row` (or, without a row, to some row)? Yes when no policy action decides it. */
export async function mayDo(ctx: RequestContext, section: SectionConfig, action: RowAction, row?: object): Promise<boolean> {
  const named = policyAction(ctx, section, action);
  return named === null ? true : (ctx as unknown as PolicyRequest).can(named, row);
}

/** The app's database, untyped (tables are named at run time). */
export function databaseOf(ctx: RequestContext): AnyKysely {
  return (ctx.services as unknown as { db: AnyKysely }).db;
}
