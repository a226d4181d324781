/**
 * Loading included paths from a handler (docs/schema-language.md "Included
 * paths and batch loading"): `load.<Resource>(ctx, rows, paths)` of
 * `generated/relations.ts` calls {@link loadRelations} with the schema's
 * relation graph; the rows get the same members, read in the same batches
 * and narrowed by the same policies as a route's `include:`. It lives with
 * the list runner: both are what generated code calls through `bindery/routing`.
 */
import type { IncludePlan } from '../../routing/route-table.js';
import type { AnyKysely } from '../../db/any-kysely.js';
import type { Policies, PolicySubject } from '../../authorization/policies.js';
import { viewScopeOf } from './list-scope.js';
import { GUEST } from '../../context/request-auth.js';
import { loadIncludes } from '../includes.js';

/** One step of the relation graph: an include of the resource's rows, and the resource of the related rows (absent for computed fields). */
export interface RelationStep extends IncludePlan {
  readonly resource?: string;
}

/** The relation graph of a schema: resource name → member name → step (`generated/relations.ts`). */
export type RelationGraph = Readonly<Record<string, Readonly<Record<string, RelationStep>>>>;

/** What {@link loadRelations} needs of the request context: `services.db` (and `services.policies` when the app has policies), and `auth`. */
export interface LoadContext {
  readonly services: object;
  /** Who asks (`ctx.auth`): viewer booleans and policies are theirs. Absent: a guest. */
  readonly auth?: PolicySubject;
}

/** The first name of a path (`author` of `author.following`). */
type Head<P extends string> = P extends `${infer H}.${string}` ? H : P;
/** The rest of the paths starting with `H` (`following` of `author.following`). */
type Rest<P extends string, H extends string> = P extends `${H}.${infer T}` ? T : never;

/**
 * A row with the members of the included paths `P`, given the resource's
 * relations `R` (generated: `{ author: { one: User; of: UserRelations }; tags:
 * { many: Tag; of: TagRelations }; favorited: { value: boolean } }`).
 */
export type Loaded<Row, R, P extends string> = [P] extends [never]
  ? Row
  : Row & {
      [K in Head<P> & keyof R & string]: R[K] extends { value: infer V }
        ? V
        : R[K] extends { many: infer T; of: infer TR }
          ? Loaded<T, TR, Rest<P, K>>[]
          : R[K] extends { one: infer T; of: infer TR }
            ? Loaded<T, TR, Rest<P, K>> | null
            : never;
    };

/**
 * The include plans of `paths` on rows of `resource`, merged into a tree
 * (`author.following` adds `following` under `author`).
 * @throws {Error} for a name that is not a step of the graph (the generated loader's types prevent it).
 */
export function planPaths(graph: RelationGraph, resource: string, paths: readonly string[]): IncludePlan[] {
  type Node = { plan: IncludePlan; resource?: string; children: Node[] };
  const roots: Node[] = [];
  for (const path of paths) {
    let level = roots;
    let on = resource;
    for (const name of path.split('.')) {
      let node = level.find((n) => n.plan.name === name);
      if (node === undefined) {
        const step = graph[on]?.[name];
        if (step === undefined) throw new Error(`loadRelations: ${on} has no relation or computed field "${name}" (path "${path}").`);
        const { resource: related, ...plan } = step;
        node = { plan, ...(related !== undefined ? { resource: related } : {}), children: [] };
        level.push(node);
      }
      if (node.resource === undefined) break;
      on = node.resource;
      level = node.children;
    }
  }
  const freeze = (n: Node): IncludePlan => (n.children.length > 0 ? { ...n.plan, include: n.children.map(freeze) } : n.plan);
  return roots.map(freeze);
}

/**
 * Load the included `paths` of `rows` (of `resource`) in batch: one
 * statement per relation and per join of computed fields, whatever the
 * number of rows; related rows the caller may not `view` are left out
 * (docs/authorization.md), viewer booleans are the caller's (false for a guest).
 * @returns the same rows, changed in place, with the paths' members.
 * @throws {Error} when `ctx.services` has no `db`, or a path is not in the graph.
 */
export async function loadRelations<Row extends object>(
  ctx: LoadContext,
  graph: RelationGraph,
  resource: string,
  rows: readonly Row[],
  paths: readonly string[],
): Promise<Row[]> {
  const { db, policies } = ctx.services as { db?: AnyKysely; policies?: Policies };
  if (db === undefined) throw new Error('loadRelations: ctx.services needs db (set up by the app boot).');
  const auth = ctx.auth ?? GUEST;
  const scopeOf = viewScopeOf(policies, auth);
  await loadIncludes(db, planPaths(graph, resource, paths), rows as unknown as Record<string, unknown>[], scopeOf, auth.id);
  return [...rows];
}
