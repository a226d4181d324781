/**
 * `generated/lists.ts` (only when the schema has list routes): `lists`, one
 * typed function per list route, keyed by route name, that reads a page with
 * the runtime's `runList` — what the route's handler calls, optionally with
 * a scope (docs/schema-language.md "List routes").
 *
 * Also the row types of list pages (`listRowType`, `listJsonType`), shared
 * with the handlers, OpenAPI and client emitters. Written as text in one pass.
 */
import type { Route, RouteList } from '../../model/model.js';
import { inputTypeName, resourceTypeNames } from '../../model/names.js';
import type { EmitContext, GeneratedFile } from '../context.js';
import { docText, quote } from '../ts-source.js';

/** The row type of a list page: `Note`, or `Document & { owner: User | null }` with included relations. */
export function listRowType(list: RouteList): string {
  if (list.include.length === 0) return list.resource;
  return `${list.resource} & { ${list.include.map((i) => `${i.name}: ${i.resource} | null`).join('; ')} }`;
}

/** The JSON type of a list row: `NoteJson`, or `DocumentJson & { owner: UserJson | null }`. */
export function listJsonType(list: RouteList): string {
  const json = resourceTypeNames(list.resource).json;
  if (list.include.length === 0) return json;
  return `${json} & { ${list.include.map((i) => `${i.name}: ${resourceTypeNames(i.resource).json} | null`).join('; ')} }`;
}

/** Emit `lists.ts`, or nothing when no route has a list. */
export function emitLists(ctx: EmitContext): GeneratedFile | null {
  const entries = ctx.model.routes.map((route, index) => ({ route, index })).filter((e) => e.route.list !== null);
  if (entries.length === 0) return null;
  const resources = new Map(ctx.model.resources.map((r) => [r.name, r]));
  const types = new Set<string>(['Database']);
  for (const { route } of entries) {
    types.add(route.list!.resource);
    types.add(inputTypeName(route.name));
    for (const inc of route.list!.include) types.add(inc.resource);
  }
  const members = entries.map(({ route, index }) => member(route, index, resources.get(route.list!.resource)!.table));
  const text = `// ${ctx.header}
/**
 * The pages of the list routes: \`lists['<route>'](ctx, input, scope?)\` reads
 * one page (\`{ data, next }\`) for the route's bound input; \`scope\` narrows the
 * rows (e.g. to the signed-in user's). See docs/schema-language.md "List routes".
 */
import { runList, type ListContext, type ListPage, type ListScope } from '${ctx.runtime}/routing';
import { routes } from './routes.js';
import type { ${[...types].sort().join(', ')} } from './types.js';

/** One function per list route, by route name. */
export const lists = {
${members.join('\n')}
};
`;
  return { path: 'lists.ts', content: text };
}

function member(route: Route, index: number, table: string): string {
  const list = route.list!;
  const doc = `${route.method} ${route.path}${route.summary ? ` — ${docText(route.summary)}` : ''}`;
  return `  /** ${doc} */
  ${quote(route.name)}: (ctx: ListContext, input: ${inputTypeName(route.name)}, scope?: ListScope<Database, ${quote(table)}>): Promise<ListPage<${listRowType(list)}>> =>
    runList(ctx, routes[${index}], input, scope),`;
}
