/**
 * `generated/serializers.ts`: one `serialize<Name>(row)` per resource — row
 * (DB names) to JSON (JSON names, hidden fields dropped, `omitEmpty` fields
 * omitted when null, '' or [], `Date` as RFC 3339 via `toISOString()`), keys
 * in YAML field order. Straight-line code: these run for every JSON response.
 */
import { type StatementStructures, StructureKind } from '../ts-structures.js';
import type { Resource } from '../../model/model.js';
import { resourceTypeNames, serializerName } from '../../model/names.js';
import type { EmitContext } from '../context.js';
import type { GeneratedFile } from '../../write/generated-file.js';
import { createTsPrinter, propertyName } from '../ts-source.js';
import { present, value } from './field-json.js';
import { shapeImports, shapeSerializers } from './shape-serializers.js';

/** Emit `serializers.ts` (see the module comment). */
export function emitSerializers(ctx: EmitContext): GeneratedFile {
  const printer = createTsPrinter();
  const statements: StatementStructures[] = [];
  const resources = ctx.model.resources;
  if (resources.length === 0) {
    statements.push({ kind: StructureKind.ExportDeclaration });
  } else {
    statements.push({
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: './types.js',
      namedImports: resources.flatMap((r) => [resourceTypeNames(r.name).row, resourceTypeNames(r.name).json]).sort(),
    });
    if (resources.some((r) => r.fields.some((f) => f.type.kind === 'file' && !f.hidden)))
      statements.push({ kind: StructureKind.ImportDeclaration, moduleSpecifier: `${ctx.runtime}/storage`, namedImports: ['fileJson'] });
  }
  statements.push(...shapeImports(ctx.model));
  for (const resource of resources) {
    const names = resourceTypeNames(resource.name);
    statements.push({
      kind: StructureKind.Function,
      name: serializerName(resource.name),
      isExported: true,
      docs: [`${resource.name} row → JSON (\`${names.json}\`).`],
      parameters: [{ name: 'row', type: names.row }],
      returnType: names.json,
      statements: body(resource),
    });
  }
  statements.push(...shapeSerializers(ctx.model));
  return printer.file('serializers.ts', statements, ctx.header);
}

/** One object literal when no field is omitted conditionally; else the literal up to the first such field, then assignments in order. */
function body(resource: Resource): string[] {
  const fields = resource.fields.filter((f) => !f.hidden);
  const json = resourceTypeNames(resource.name).json;
  const firstOptional = fields.findIndex((f) => f.omitEmpty);
  if (firstOptional === -1) {
    return [`return {\n${fields.map((f) => `  ${propertyName(f.json)}: ${value(f, false)},\n`).join('')}};`];
  }
  const head = fields.slice(0, firstOptional);
  const statements = [
    `const json = {${head.map((f) => `\n  ${propertyName(f.json)}: ${value(f, false)},`).join('')}${head.length ? '\n' : ''}} as ${json};`,
  ];
  for (const f of fields.slice(firstOptional)) {
    const target = `json${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(f.json) ? `.${f.json}` : `[${propertyName(f.json)}]`}`;
    statements.push(f.omitEmpty ? `if (${present(f)}) ${target} = ${value(f, true)};` : `${target} = ${value(f, false)};`);
  }
  statements.push('return json;');
  return statements;
}
