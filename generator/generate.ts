/**
 * The pipeline: load → model → emit → write (DESIGN.md 1 and 2).
 */
import { relative, resolve, sep } from 'node:path';
import { Diagnostics, type SchemaDiagnostic } from './diagnostics.js';
import { emitAudit } from './emit/audit/emit-audit.js';
import { emitClient } from './emit/client/emit-client.js';
import type { EmitContext, GeneratedFile } from './emit/context.js';
import { emitHandlers } from './emit/handlers/emit-handlers.js';
import { emitMigrations, MIGRATIONS_DIR, SNAPSHOT_FILE } from './emit/migrations/emit-migrations.js';
import { emitOpenApi } from './emit/openapi/emit-openapi.js';
import { emitPluginList } from './emit/plugins/emit-plugin-list.js';
import { emitRoutes } from './emit/routes/emit-routes.js';
import { emitSerializers } from './emit/serializers/emit-serializers.js';
import { emitTypes } from './emit/types/emit-types.js';
import { emitValidators } from './emit/validators/emit-validators.js';
import { loadSchema } from './load/load-schema.js';
import { readProjectConfig } from './load/project-config.js';
import { buildModel } from './model/build-model.js';
import { compareTree, diffText } from './write/compare.js';
import { readTree } from './write/disk-tree.js';
import { headerText } from './write/header.js';
import { writeTree } from './write/write-tree.js';

/** Options of {@link generate}. Paths are relative to `root` unless absolute. */
export interface GenerateOptions {
  /** Project root (absolute, or relative to the working directory). */
  root: string;
  /** Write nothing; report in `changed` and `diff` what is stale. Default false. */
  check?: boolean;
  /** Allow a migration that drops a table or column or narrows a type. Default false. */
  allowDestructive?: boolean;
  /** Re-derive `schema.snapshot.json` from the migration files instead of reading it (docs/database.md "When a migration fails"). Default false. */
  rebuildSnapshot?: boolean;
  /** Schema folder. Default `schema`. */
  schemaDir?: string;
  /** Output folder. Default `generated`. */
  outDir?: string;
  /** Emit the `Services { db: Kysely<Database> }` augmentation (plugins turn it off). Default true; false when package.json says `"bindery": { "plugin": true }`. */
  augmentServices?: boolean;
  /** The bindery runtime folder the generated files import (by relative path). Default `runtime`. */
  runtimeDir?: string;
  /**
   * The runtime as a package specifier the generated files import verbatim
   * (`bindery/runtime`), instead of `runtimeDir`: what a plugin package
   * needs, since it is installed into other apps' node_modules. Default: none;
   * `bindery/runtime` when package.json says `"bindery": { "plugin": true }`.
   */
  runtimeImport?: string;
}

/** The outcome of {@link generate}. */
export interface GenerateResult {
  /** No diagnostics. In check mode `ok` says nothing about staleness: look at `changed`. */
  ok: boolean;
  /** Every schema (or migration) error, sorted by file, line, column. Nothing was written when there is one. */
  diagnostics: SchemaDiagnostic[];
  /** Paths relative to the root (e.g. `generated/types.ts`) written or removed — or, with `check`, that are stale. Sorted. */
  changed: string[];
  /** Unified diff of the stale files, disk (`a/`) to schema (`b/`), in check mode; `''` otherwise. */
  diff: string;
}

/**
 * Compile `schema/*.yaml` into `generated/` (see docs/generator.md).
 *
 * Everything is computed before anything is written: on any diagnostic
 * nothing under the output folder changes. Without `check`, only files whose
 * bytes differ are written (each via a temporary file and a rename), and
 * generated files no longer produced are removed — never migrations, which are
 * append-only. With `check`, nothing is written: a missing, extra or different
 * file, or a migration the schema asks for, is stale.
 *
 * @throws {Error} on I/O errors (unreadable files, full disk) — never for schema errors.
 * @example
 *   const result = await generate({ root: process.cwd(), check: true });
 *   if (!result.ok) result.diagnostics.forEach((d) => console.error(formatDiagnostic(d)));
 *   else if (result.changed.length > 0) console.log(result.diff);
 */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const root = resolve(options.root);
  const schemaDir = resolve(root, options.schemaDir ?? 'schema');
  const outDir = resolve(root, options.outDir ?? 'generated');
  const outName = posix(relative(root, outDir));
  const diagnostics = new Diagnostics();

  const project = await readProjectConfig(root, diagnostics);
  const files = await loadSchema(root, schemaDir, diagnostics);
  const model = diagnostics.any ? undefined : buildModel(files, diagnostics, project.pluginTables);
  if (!model) return failed(diagnostics);

  const disk = await readTree(outDir);
  const runtimeDir = posix(relative(outDir, resolve(root, options.runtimeDir ?? 'runtime')));
  const runtimeImport = options.runtimeImport ?? (project.isPlugin && options.runtimeDir === undefined ? 'bindery/runtime' : undefined);
  const ctx: EmitContext = {
    model,
    header: headerText(posix(relative(root, schemaDir))),
    runtime: runtimeImport ?? (runtimeDir.startsWith('.') ? runtimeDir : `./${runtimeDir}`),
    augmentServices: options.augmentServices ?? !project.isPlugin,
  };
  const migrations = emitMigrations(ctx, {
    outDir: outName,
    snapshotText: disk.get(SNAPSHOT_FILE),
    migrations: [...disk.keys()].filter((p) => /^migrations\/[^/]+\.sql$/.test(p)).map((p) => p.slice(MIGRATIONS_DIR.length + 1, -4)),
    read: (name) => disk.get(`${MIGRATIONS_DIR}/${name}.sql`), rebuildSnapshot: options.rebuildSnapshot ?? false,
  }, options.allowDestructive ?? false, diagnostics);
  if (diagnostics.any) return failed(diagnostics);

  const audit = emitAudit(ctx);
  const generated: GeneratedFile[] = [
    emitTypes(ctx), emitSerializers(ctx), emitValidators(ctx), emitRoutes(ctx), emitHandlers(ctx), emitOpenApi(ctx), emitClient(ctx), ...(audit ? [audit] : []), ...migrations,
    ...(project.plugins !== undefined ? [emitPluginList(project.plugins, ctx.runtime)] : []),
  ];
  const comparison = compareTree(generated, disk);
  const changed = [...comparison.write.map((f) => f.path), ...comparison.remove].sort().map((p) => `${outName}/${p}`);
  if (options.check) return { ok: true, diagnostics: [], changed, diff: diffText(comparison, disk, outName) };
  await writeTree(outDir, comparison);
  return { ok: true, diagnostics: [], changed, diff: '' };
}

function failed(diagnostics: Diagnostics): GenerateResult {
  return { ok: false, diagnostics: diagnostics.sorted(), changed: [], diff: '' };
}

function posix(path: string): string {
  return path.split(sep).join('/');
}
