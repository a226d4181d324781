/**
 * Every emitter in turn: the generated files of a model. Loaded by
 * `generate` only when there is work to do (it pulls in ajv and ts-morph).
 */
import type { Diagnostics } from '../diagnostics.js';
import type { FileTree } from '../write/disk-tree.js';
import { emitAudit } from './audit/emit-audit.js';
import { emitBackOffice } from './back-office/emit-back-office.js';
import { emitClient } from './client/emit-client.js';
import { emitFactories } from './factories/emit-factories.js';
import type { EmitContext } from './context.js';
import type { GeneratedFile } from '../write/generated-file.js';
import { emitHandlers } from './handlers/emit-handlers.js';
import { emitLists } from './lists/emit-lists.js';
import { emitRelations } from './lists/emit-relations.js';
import { DEFAULT_DATABASES, type DatabaseName } from '../load/project-config.js';
import { emitMigrations, SNAPSHOT_FILE } from './migrations/emit-migrations.js';
import { historyDir, migrationLayout, migrationNames } from './migrations/layout.js';
import { emitOpenApi } from './openapi/emit-openapi.js';
import { emitPluginList } from './plugins/emit-plugin-list.js';
import { emitPolicies } from './policies/emit-policies.js';
import { emitRoutes } from './routes/emit-routes.js';
import { emitSerializers } from './serializers/emit-serializers.js';
import { emitTypes } from './types/emit-types.js';
import { emitValidators } from './validators/emit-validators.js';

/** What the emitters need besides the model. */
export interface EmitInputs {
  /** Output folder relative to the root, e.g. `generated`. */
  readonly outName: string;
  /** The output folder as it is (the migration snapshot and history are read from it). */
  readonly disk: FileTree;
  /** The app's plugin packages (package.json `bindery.plugins`), or undefined for none. */
  readonly plugins: readonly string[] | undefined;
  /** Allow a destructive migration. */
  readonly allowDestructive: boolean;
  /** Re-derive the snapshot from the migration files (docs/database.md "When a migration fails"). */
  readonly rebuildSnapshot: boolean;
  /** The draft migration to fold the changes into, by name (docs/generator.md "Draft migrations"). */
  readonly draft?: string;
  /** The engines the migrations are written for (package.json `bindery.databases`). Default `["postgres"]`. */
  readonly databases?: readonly DatabaseName[];
  /** A `--check` run (nothing is written). Validators whose fingerprint matches are taken from `disk` instead of compiled either way (docs/generator.md "Validator fingerprints"). Default false. */
  readonly check?: boolean;
}

/** What {@link emitAll} makes. */
export interface EmitOutput {
  readonly files: GeneratedFile[];
  /** The migration changes were folded into `inputs.draft` (whose file is then replaced, or removed). */
  readonly foldedDraft: boolean;
  /** Migration files moved (written under the engine's folder): removed from where they were. */
  readonly moved: readonly string[];
  /** The migration folder of each engine, the history of record's first (`migrations`, `migrations/mysql`). */
  readonly migrationDirs: readonly string[];
}

/**
 * The generated files, or null when a migration problem was added to
 * `diagnostics` (nothing must be written then).
 */
export function emitAll(ctx: EmitContext, inputs: EmitInputs, diagnostics: Diagnostics): EmitOutput | null {
  const layout = migrationLayout(inputs.databases ?? DEFAULT_DATABASES, inputs.disk);
  const [record, ...others] = layout;
  const from = historyDir(record!);
  const migrations = emitMigrations(
    ctx,
    {
      outDir: inputs.outName,
      dir: from,
      writeDir: record!.dir,
      snapshotText: inputs.disk.get(SNAPSHOT_FILE),
      migrations: migrationNames(inputs.disk, from),
      read: (name) => inputs.disk.get(`${from}/${name}.sql`),
      rebuildSnapshot: inputs.rebuildSnapshot,
      ...(inputs.draft !== undefined ? { draft: inputs.draft } : {}),
    },
    inputs.allowDestructive,
    diagnostics,
    record!.engine,
    others.map((l) => ({
      engine: l.engine,
      dir: l.dir,
      migrations: migrationNames(inputs.disk, l.dir),
      read: (name: string) => inputs.disk.get(`${l.dir}/${name}.sql`),
    })),
  );
  if (diagnostics.any) return null;
  const audit = emitAudit(ctx);
  const backOffice = emitBackOffice(ctx);
  const lists = emitLists(ctx);
  const relations = emitRelations(ctx);
  const factories = emitFactories(ctx);
  const policies = emitPolicies(ctx);
  const files: GeneratedFile[] = [
    emitTypes(ctx),
    emitSerializers(ctx),
    emitValidators(ctx, inputs.disk.get('validators.ts')),
    emitRoutes(ctx),
    emitHandlers(ctx),
    emitOpenApi(ctx),
    emitClient(ctx),
    ...(audit ? [audit] : []),
    ...(backOffice ? [backOffice] : []),
    ...(lists ? [lists] : []),
    ...(relations ? [relations] : []),
    ...(factories ? [factories] : []),
    ...(policies ? [policies] : []),
    ...migrations.files,
    ...(inputs.plugins !== undefined ? [emitPluginList(inputs.plugins, ctx.runtime)] : []),
  ];
  // PostgreSQL's flat files of a project that added an engine move into migrations/postgres/, unchanged.
  const moved =
    record!.movedFrom === undefined ? [] : migrationNames(inputs.disk, record!.movedFrom).map((name) => `${record!.movedFrom}/${name}.sql`);
  const movedFiles = moved
    .map((path) => ({ path: `${record!.dir}/${path.slice(record!.movedFrom!.length + 1)}`, content: inputs.disk.get(path)! }))
    .filter((f) => !files.some((g) => g.path === f.path));
  files.push(...movedFiles);
  return { files, foldedDraft: migrations.folded, moved, migrationDirs: layout.map((l) => l.dir) };
}
