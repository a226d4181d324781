/**
 * `generated/handlers.ts`: the `Handlers` interface, one typed
 * `RouteHandler<Input, ResultFor<kind, Output>>` per route, so a missing or
 * mistyped handler in `app/` fails `tsc` (DESIGN.md 2, "handler contracts").
 *
 * The output type is the row type (`Note`, `Note[]`): the runtime serializes
 * it with the route's output plan. Routes without output use `unknown` for
 * `ok`/`created` and `never` for the other kinds.
 */
import type { Route } from '../../model/model.js';
import { inputTypeName } from '../../model/names.js';
import type { EmitContext, GeneratedFile } from '../context.js';
import { createTsPrinter, docText, quote } from '../ts-source.js';

/** Emit `handlers.ts` (see the module comment). */
export function emitHandlers(ctx: EmitContext): GeneratedFile {
  const printer = createTsPrinter();
  const file = printer.file('handlers.ts');
  const routes = ctx.model.routes;
  const rows = [...new Set(routes.flatMap((r) => (r.output ? [r.output.resource] : [])))];
  if (routes.length > 0) {
    file.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: `${ctx.runtime}/http/handler.js`, namedImports: ['RouteHandler'] });
    file.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: `${ctx.runtime}/results/result.js`, namedImports: ['ResultFor'] });
    file.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: './types.js', namedImports: [...rows, ...routes.map((r) => inputTypeName(r.name))].sort() });
  }
  file.addInterface({
    name: 'Handlers',
    isExported: true,
    docs: ['The handler of every route, by route name.'],
    properties: routes.map((r) => ({
      name: quote(r.name),
      type: `RouteHandler<${inputTypeName(r.name)}, ResultFor<${quote(r.result)}, ${outputType(r)}>>`,
      docs: [docText(`${r.method} ${r.path}${r.summary ? ` — ${r.summary}` : ''}`)],
    })),
  });
  return { path: 'handlers.ts', content: printer.print(file, ctx.header) };
}

function outputType(route: Route): string {
  if (route.output) return route.output.array ? `${route.output.resource}[]` : route.output.resource;
  return route.result === 'ok' || route.result === 'created' ? 'unknown' : 'never';
}
