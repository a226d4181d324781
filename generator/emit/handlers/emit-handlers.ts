/**
 * `generated/handlers.ts`: the `Handlers` interface, one typed
 * `RouteHandler<Input, ResultFor<kind, Output>>` per route, so a missing or
 * mistyped handler in `app/` fails `tsc` (ARCHITECTURE.md "Generator pipeline").
 *
 * A route whose policy names a row (docs/authorization.md) gets that row's
 * type as the third type argument: its handler's `target`.
 *
 * The output type is the row type (`Note`, `Note[]`): the runtime serializes
 * it with the route's output plan; a list route's is its page
 * (`ListPage<Note>`, from `generated/lists.ts`); a shape output's is the
 * shape's value (`Profile`, `<Route>Output`; docs/schema-language.md "Output
 * shapes"). Routes without output use `unknown` for
 * `ok`/`created` and `never` for the other kinds.
 */
import { type StatementStructures, StructureKind } from '../ts-structures.js';
import type { Route } from '../../model/model.js';
import { inputTypeName } from '../../model/names.js';
import type { EmitContext } from '../context.js';
import type { GeneratedFile } from '../../write/generated-file.js';
import { createTsPrinter, docText, quote } from '../ts-source.js';
import { rowType } from '../row-types.js';
import { targetRowType } from '../policies/route-policies.js';
import { rowIncludes } from '../../model/includes.js';
import { outputNames } from '../shape-types.js';

/** Emit `handlers.ts` (see the module comment). */
export function emitHandlers(ctx: EmitContext): GeneratedFile {
  const printer = createTsPrinter();
  const statements: StatementStructures[] = [];
  const routes = ctx.model.routes;
  const targets = new Map(routes.map((r) => [r.name, targetRowType(r, ctx.model)]));
  const rows = [
    ...new Set(
      routes.flatMap((r) => [
        ...(r.output ? [r.output.resource] : []),
        ...(r.shape !== null ? [outputNames({ ...r, shape: r.shape }).value.replace(/\[\]$/, '')] : []),
        ...(r.list && r.shape === null ? [r.list.resource, ...rowIncludes(r.include).map((i) => i.resource)] : []),
        ...(targets.get(r.name) && targets.get(r.name)!.entry === undefined ? [targets.get(r.name)!.name] : []),
      ]),
    ),
  ];
  const external = new Map<string, Set<string>>();
  for (const t of targets.values()) if (t?.entry !== undefined) external.set(t.entry, (external.get(t.entry) ?? new Set()).add(t.name));
  /** List routes whose handler returns the page (not a shape built from it). */
  const pages = routes.filter((r) => r.list !== null && r.shape === null);
  const hasLists = pages.length > 0;
  if (routes.length > 0) {
    statements.push({
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: `${ctx.runtime}/http`,
      namedImports: ['RouteHandler'],
    });
    statements.push({
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: `${ctx.runtime}/results`,
      namedImports: [...(hasLists ? [...new Set(pages.map((r) => pageType(r)))].sort() : []), 'ResultFor'],
    });
    for (const [entry, names] of [...external].sort(([a], [b]) => (a < b ? -1 : 1)))
      statements.push({
        kind: StructureKind.ImportDeclaration,
        isTypeOnly: true,
        moduleSpecifier: `${ctx.runtime}/${entry}`,
        namedImports: [...names].sort(),
      });
    statements.push({
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: './types.js',
      namedImports: [...rows, ...routes.map((r) => inputTypeName(r.name))].sort(),
    });
  }
  statements.push({
    kind: StructureKind.Interface,
    name: 'Handlers',
    isExported: true,
    docs: ['The handler of every route, by route name.'],
    properties: routes.map((r) => ({
      name: quote(r.name),
      type: `RouteHandler<${inputTypeName(r.name)}, ResultFor<${quote(r.result)}, ${outputType(r)}>${targets.get(r.name) ? `, ${targets.get(r.name)!.name}` : ''}>`,
      docs: [docText(`${r.method} ${r.path}${r.summary ? ` — ${r.summary}` : ''}`)],
    })),
  });
  return printer.file('handlers.ts', statements, ctx.header);
}

function outputType(route: Route): string {
  if (route.list && route.shape === null) return `${pageType(route)}<${rowType(route.list.resource, route.include)}>`;
  if (route.output) return route.output.array ? `${route.output.resource}[]` : route.output.resource;
  if (route.shape !== null) return outputNames({ ...route, shape: route.shape }).value;
  return route.result === 'ok' || route.result === 'created' ? 'unknown' : 'never';
}

/** The page type of a list route: `ListPage` (cursor) or `OffsetPage`. */
function pageType(route: Route): string {
  return route.list?.paging === 'offset' ? 'OffsetPage' : 'ListPage';
}
