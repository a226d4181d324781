/**
 * `generated/lists.ts` (only when the schema has list routes): `lists`, one
 * typed function per list route, keyed by route name, that reads a page with
 * the runtime's `runList` — what the route's handler calls, optionally with
 * a scope (docs/schema-language.md "List routes").
 *
 * Written as text in one pass.
 */
import type { Route } from '../../model/model.js';
import { inputTypeName } from '../../model/names.js';
import { rowType } from '../row-types.js';
import { rowIncludes } from '../../model/includes.js';
import type { EmitContext } from '../context.js';
import type { GeneratedFile } from '../../write/generated-file.js';
import { docText, quote } from '../ts-source.js';

/** Emit `lists.ts`, or nothing when no route has a list. */
export function emitLists(ctx: EmitContext): GeneratedFile | null {
  const entries = ctx.model.routes.map((route, index) => ({ route, index })).filter((e) => e.route.list !== null);
  if (entries.length === 0) return null;
  const resources = new Map(ctx.model.resources.map((r) => [r.name, r]));
  const types = new Set<string>(['Database']);
  for (const { route } of entries) {
    types.add(route.list!.resource);
    types.add(inputTypeName(route.name));
    for (const inc of rowIncludes(route.include)) types.add(inc.resource);
  }
  const members = entries.map(({ route, index }) => member(route, index, resources.get(route.list!.resource)!.table));
  const text = `// ${ctx.header}
/**
 * The pages of the list routes: \`lists['<route>'](ctx, input, scope?)\` reads
 * one page (\`{ data, next }\`) for the route's bound input; \`scope\` narrows the
 * rows (e.g. to the signed-in user's). See docs/schema-language.md "List routes".
 */
import { ${runners(entries.map((e) => e.route))}type ListContext, ${pages(entries.map((e) => e.route))}type ListScope } from '${ctx.runtime}/results';
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
  const doc = `${route.method} ${route.path}${route.summary ? ` — ${docText(route.summary)}` : ''}`;
  return `  /** ${doc} */
  ${quote(route.name)}: (ctx: ListContext, input: ${inputTypeName(route.name)}, scope?: ListScope<Database, ${quote(table)}>): Promise<${route.list!.paging === 'offset' ? 'OffsetPage' : 'ListPage'}<${rowType(route.list!.resource, route.include)}>> =>
    ${route.list!.paging === 'offset' ? 'runOffsetList' : 'runList'}(ctx, routes[${index}], input, scope),`;
}

/** `type ListPage, type OffsetPage, ` as the routes use them. */
function pages(routes: readonly Route[]): string {
  const used = new Set(routes.map((r) => (r.list!.paging === 'offset' ? 'OffsetPage' : 'ListPage')));
  return [...used]
    .sort()
    .map((t) => `type ${t}, `)
    .join('');
}

/** `runList, runOffsetList, ` as the routes use them. */
function runners(routes: readonly Route[]): string {
  const used = new Set(routes.map((r) => (r.list!.paging === 'offset' ? 'runOffsetList' : 'runList')));
  return [...used]
    .sort()
    .map((t) => `${t}, `)
    .join('');
}
