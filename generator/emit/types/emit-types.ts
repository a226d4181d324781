/**
 * `generated/types.ts`: per resource the Kysely table interface and its row,
 * insert, update and JSON types; the Kysely `Database`; per route the input
 * type; per output shape its value and JSON types (docs/schema-language.md
 * "Output shapes"); and the `Services` augmentation giving handlers `ctx.services.db`.
 */
import { ModuleDeclarationKind, StructureKind, type PropertySignatureStructure, type StatementStructures } from '../ts-structures.js';
import type { InputField, Resource, Route } from '../../model/model.js';
import { inputTypeName, resourceTypeNames } from '../../model/names.js';
import type { EmitContext } from '../context.js';
import type { GeneratedFile } from '../../write/generated-file.js';
import { columnTypeOf } from '../column-type.js';
import { createTsPrinter, docText, propertyName } from '../ts-source.js';
import { columnTsType, inputTsType, jsonTsType } from './ts-types.js';
import { shapeStatements } from './shape-statements.js';

/**
 * Emit `types.ts` (see the module comment). Type names: `<Name>Table`,
 * `<Name>`, `New<Name>`, `<Name>Update`, `<Name>Json`, `Database`,
 * `<PascalRoute>Input`, `JsonValue`.
 */
export function emitTypes(ctx: EmitContext): GeneratedFile {
  const printer = createTsPrinter();
  const statements: StatementStructures[] = [];
  const columns = ctx.model.resources.flatMap((r) => r.fields.map(columnTsType));
  const kysely = [
    ...(columns.some((c) => c.usesColumnType) ? ['ColumnType'] : []),
    ...(columns.some((c) => c.usesGenerated) ? ['Generated'] : []),
    'Insertable',
    ...(ctx.augmentServices ? ['Kysely'] : []),
    'Selectable',
    'Updateable',
  ];
  if (ctx.model.resources.length > 0 || ctx.augmentServices) {
    statements.push({
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: 'kysely',
      namedImports: ctx.model.resources.length > 0 ? kysely : ['Kysely'],
    });
  }
  if (ctx.model.resources.some((r) => r.fields.some((f) => f.type.kind === 'file'))) {
    statements.push({
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: `${ctx.runtime}/storage`,
      namedImports: ['FileJson', 'FileRef'],
    });
  }
  if (ctx.model.routes.some((r) => r.input.some((f) => f.type.kind === 'file'))) {
    statements.push({
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: `${ctx.runtime}/routing`,
      namedImports: ['UploadedFile'],
    });
  }

  statements.push({
    kind: StructureKind.TypeAlias,
    name: 'JsonValue',
    isExported: true,
    docs: ['A JSON value: the type of `json` columns and input fields.'],
    type: 'string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }',
  });
  for (const resource of ctx.model.resources) statements.push(...resourceStatements(resource));
  statements.push({
    kind: StructureKind.Interface,
    name: 'Database',
    isExported: true,
    docs: ['The database for Kysely: table name → columns.'],
    properties: ctx.model.resources.map((r) => ({ name: propertyName(r.table), type: resourceTypeNames(r.name).table })),
  });
  for (const route of ctx.model.routes) statements.push(inputStatement(route));
  statements.push(...shapeStatements(ctx.model));
  if (ctx.augmentServices) {
    statements.push({
      kind: StructureKind.Module,
      name: `'${ctx.runtime}/http'`,
      declarationKind: ModuleDeclarationKind.Module,
      hasDeclareKeyword: true,
      statements: [
        {
          kind: StructureKind.Interface,
          name: 'Services',
          properties: [{ name: 'db', type: 'Kysely<Database>', docs: ['The application database (Kysely over pg).'] }],
        },
      ],
    });
  }
  return printer.file('types.ts', statements, ctx.header);
}

function resourceStatements(resource: Resource): StatementStructures[] {
  const names = resourceTypeNames(resource.name);
  const about = resource.description ? ` ${docText(resource.description)}` : '';
  return [
    {
      kind: StructureKind.Interface,
      name: names.table,
      isExported: true,
      docs: [`Columns of table \`${resource.table}\` (resource ${resource.name}).${about}`],
      properties: resource.fields.map((f) => ({
        name: f.name,
        type: columnTsType(f).type,
        docs: [
          [
            `\`${columnTypeOf(f.type)}\`${f.primaryKey ? ' primary key' : ''}${f.identity ? ', identity' : ''}${f.type.nullable ? ', null allowed' : ''}${f.type.values ? `, one of ${f.type.values.join(', ')} (CHECK)` : ''}.`,
            f.description ? docText(f.description) : '',
          ]
            .filter(Boolean)
            .join(' '),
        ],
      })),
    },
    {
      kind: StructureKind.TypeAlias,
      name: names.row,
      isExported: true,
      type: `Selectable<${names.table}>`,
      docs: [`A row of \`${resource.table}\` as selected.`],
    },
    {
      kind: StructureKind.TypeAlias,
      name: names.insert,
      isExported: true,
      type: `Insertable<${names.table}>`,
      docs: [`A new row of \`${resource.table}\` to insert.`],
    },
    {
      kind: StructureKind.TypeAlias,
      name: names.update,
      isExported: true,
      type: `Updateable<${names.table}>`,
      docs: [`Changes to a row of \`${resource.table}\`.`],
    },
    {
      kind: StructureKind.Interface,
      name: names.json,
      isExported: true,
      docs: [`${resource.name} as JSON (\`serialize${resource.name}\`): JSON names, hidden fields absent, timestamps as RFC 3339 text.`],
      properties: resource.fields
        .filter((f) => !f.hidden)
        .map(
          (f): PropertySignatureStructure => ({
            name: propertyName(f.json),
            type: jsonTsType(f),
            hasQuestionToken: f.omitEmpty,
            ...(f.omitEmpty ? { docs: ['Absent when empty (null, "" or []).'] } : {}),
          }),
        ),
    },
  ];
}

function inputStatement(route: Route): StatementStructures {
  const docs = [`Input of route \`${route.name}\` (${route.method} ${route.path}).`];
  if (route.input.length === 0) {
    return { kind: StructureKind.TypeAlias, name: inputTypeName(route.name), isExported: true, type: 'Record<string, never>', docs };
  }
  return {
    kind: StructureKind.Interface,
    name: inputTypeName(route.name),
    isExported: true,
    docs,
    properties: route.input.map((f) => ({
      name: f.key,
      type: inputTsType(f),
      hasQuestionToken: !(f.required || f.source === 'path' || f.default !== undefined),
      docs: [docText(fieldDoc(f))],
    })),
  };
}

function fieldDoc(f: InputField): string {
  const from =
    f.source === 'body'
      ? [f.json !== undefined ? `JSON member \`${f.json}\`` : '', f.form !== undefined ? `form field \`${f.form}\`` : '']
          .filter(Boolean)
          .join(' or ')
      : `${f.source} ${f.source === 'path' ? 'parameter' : 'value'} \`${f.name}\``;
  const rules = f.rules.length > 0 ? ` Rules: ${f.rules.map(ruleText).join(', ')}.` : '';
  const fallback = f.default !== undefined ? ` Default: ${JSON.stringify(f.default)}.` : '';
  return `From the ${from}.${rules}${fallback}${f.description ? ` ${f.description}` : ''}`;
}

function ruleText(rule: InputField['rules'][number]): string {
  if (rule.inner) return `${rule.name}:${ruleText(rule.inner)}`;
  return rule.params.length > 0 ? `${rule.name}:${rule.params.join(',')}` : rule.name;
}
