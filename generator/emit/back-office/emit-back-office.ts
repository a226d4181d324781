/**
 * `generated/back-office.ts` (docs/back-office.md): the sections of the
 * back office, one per resource marked `backOffice:` — its fields with their
 * types, limits, enum values and references, the list's columns, filters
 * and search fields, the labels, and the create and update routes whose
 * rules its forms apply — as `sections` for `backOffice({ sections })`. Not
 * emitted when no resource has a section.
 */
import type { Model, Resource, ResourceField } from '../../model/model.js';
import { alwaysReadOnly, humanize } from '../../model/back-office.js';
import type { EmitContext } from '../context.js';
import type { GeneratedFile } from '../../write/generated-file.js';
import { StructureKind } from '../ts-structures.js';
import { printLiteral, type Literal } from '../ts-literal.js';
import { createTsPrinter, exportedConst } from '../ts-source.js';

/** Emit `back-office.ts`, or null when no resource has a section. */
export function emitBackOffice(ctx: EmitContext): GeneratedFile | null {
  const marked = ctx.model.resources.filter((r) => r.backOffice);
  if (marked.length === 0) return null;
  const printer = createTsPrinter();
  const bySection = new Map(marked.map((r) => [r.table, r.name]));
  return printer.file(
    'back-office.ts',
    [
      {
        kind: StructureKind.ImportDeclaration,
        isTypeOnly: true,
        moduleSpecifier: `${ctx.runtime}/back-office`,
        namedImports: ['SectionTable'],
      },
      exportedConst(
        "The back office's sections by resource (docs/back-office.md), for `backOffice({ sections })`.",
        'sections',
        `${printLiteral(Object.fromEntries(marked.map((r) => [r.name, sectionLiteral(ctx.model, r, bySection)])))} as const satisfies SectionTable`,
      ),
    ],
    ctx.header,
  );
}

function sectionLiteral(model: Model, resource: Resource, bySection: ReadonlyMap<string, string>): Literal {
  const section = resource.backOffice!;
  const policy = model.policies.find((p) => p.resource === resource.name)?.name ?? null;
  const routeOf = (action: string, methods: readonly string[]) =>
    model.routes.find((r) => r.authorize?.policy === policy && r.authorize.action === action && methods.includes(r.method))?.name;
  const create = policy === null ? undefined : routeOf('create', ['POST']);
  const update = policy === null ? undefined : routeOf('update', ['PATCH', 'PUT']);
  const fields = section.fields.map((name) => resource.fields.find((f) => f.name === name)!);
  return {
    resource: resource.name,
    table: resource.table,
    path: resource.table.replaceAll('_', '-'),
    label: section.label,
    primaryKey: resource.primaryKey!,
    softDelete: resource.softDelete ? 'deleted_at' : null,
    policy,
    fields: fields.map((f) => fieldLiteral(f, section.labels[f.name] ?? humanize(f.name), section.readOnly.includes(f.name), bySection)),
    list: [...section.list],
    filters: [...section.filters],
    search: [...section.search],
    routes: { ...(create !== undefined ? { create } : {}), ...(update !== undefined ? { update } : {}) },
  };
}

function fieldLiteral(f: ResourceField, label: string, readOnly: boolean, bySection: ReadonlyMap<string, string>): Literal {
  const type = f.type.array ? 'list' : f.type.values !== undefined ? 'enum' : f.type.kind;
  const section = f.references === undefined ? undefined : bySection.get(f.references.table);
  return {
    name: f.name,
    label,
    type,
    nullable: f.type.nullable,
    hasDefault: f.default !== undefined || f.identity,
    ...(f.type.max !== undefined ? { max: f.type.max } : {}),
    ...(f.type.values !== undefined ? { values: [...f.type.values] } : {}),
    ...(f.references !== undefined
      ? { references: { table: f.references.table, column: f.references.column, ...(section !== undefined ? { section } : {}) } }
      : {}),
    readOnly: readOnly || alwaysReadOnly(f),
  };
}
