/**
 * `generated/audit.ts` (ARCHITECTURE.md "Generator pipeline"; docs/audit.md): per
 * tracked resource its audit configuration — primary key, soft-delete
 * column, timestamps, hidden columns, `except` / `redact` / `reveal` — as
 * `trackedResources` for the `audit()` setup step; the typed models
 * (`TrackedModels`); and the `Services` augmentation giving handlers
 * `ctx.services.audit` and `ctx.services.models`. Not emitted when no
 * resource is tracked.
 */
import { ModuleDeclarationKind, type StatementStructures, StructureKind } from '../ts-structures.js';
import type { Resource } from '../../model/model.js';
import type { EmitContext } from '../context.js';
import type { GeneratedFile } from '../../write/generated-file.js';
import { printLiteral, type Literal } from '../ts-literal.js';
import { createTsPrinter, exportedConst, quote } from '../ts-source.js';

/** Emit `audit.ts`, or null when no resource is tracked. */
export function emitAudit(ctx: EmitContext): GeneratedFile | null {
  const tracked = ctx.model.resources.filter((r) => r.audit?.track === true);
  if (tracked.length === 0) return null;
  const printer = createTsPrinter();
  const statements: (string | StatementStructures)[] = [];
  statements.push({
    kind: StructureKind.ImportDeclaration,
    isTypeOnly: true,
    moduleSpecifier: `${ctx.runtime}/audit`,
    namedImports: ctx.augmentServices ? ['AuditLog', 'TrackedModel', 'TrackedResourceConfig'] : ['TrackedModel', 'TrackedResourceConfig'],
  });
  statements.push({ kind: StructureKind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: './types.js', namedImports: ['Database'] });

  statements.push(
    exportedConst(
      'The audit configuration of each tracked resource (docs/spec.md 6.1 rule 4), for `audit({ tracked: trackedResources })`.',
      'trackedResources',
      `${printLiteral(Object.fromEntries(tracked.map((r) => [r.name, configLiteral(r)])))} as const satisfies Readonly<Record<string, TrackedResourceConfig>>`,
    ),
  );
  statements.push({
    kind: StructureKind.Interface,
    name: 'TrackedModels',
    isExported: true,
    docs: ['The typed models of the tracked resources (`ctx.services.models`): every write through them is audited.'],
    properties: tracked.map((r) => ({
      name: r.name,
      isReadonly: true,
      type: `TrackedModel<Database, ${quote(r.table)}, ${quote(r.primaryKey!)}>`,
      docs: [`Table \`${r.table}\`.`],
    })),
  });
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
          properties: [
            { name: 'audit', type: 'AuditLog', docs: ['The audit log (the `audit()` setup step).'] },
            { name: 'models', type: 'TrackedModels', docs: ['The tracked models, by resource name (the `audit()` setup step).'] },
          ],
        },
      ],
    });
  }
  return printer.file('audit.ts', statements, ctx.header);
}

function configLiteral(resource: Resource): Literal {
  const audit = resource.audit!;
  const key = resource.fields.find((f) => f.primaryKey)!;
  return {
    resource: resource.name,
    table: resource.table,
    primaryKey: key.name,
    generatedKey: key.identity || key.default?.kind === 'randomUuid',
    columns: resource.fields.map((f) => f.name),
    softDelete: resource.softDelete ? 'deleted_at' : null,
    timestamps: resource.timestamps ? { created: 'created_at', updated: 'updated_at' } : null,
    hidden: resource.fields.filter((f) => f.hidden).map((f) => f.name),
    except: [...audit.except],
    redact: [...audit.redact],
    reveal: [...audit.reveal],
    // The indexes unique among live rows: an upsert on one is refused where they are emulated (MySQL, MariaDB).
    ...(resource.indexes.some((i) => i.live) ? { uniqueLive: resource.indexes.filter((i) => i.live).map((i) => [...i.columns]) } : {}),
  };
}
