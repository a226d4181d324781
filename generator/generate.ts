/**
 * The pipeline: load → model → emit → write (ARCHITECTURE.md "Generator pipeline").
 */
import { relative, resolve, sep } from 'node:path';
import { Diagnostics, type SchemaDiagnostic } from './diagnostics.js';
import type { EmitContext } from './emit/context.js';
import { fileHash, type GeneratedFile } from './write/generated-file.js';
import { readProjectConfig } from './load/project-config.js';
import { compareTree, diffText } from './write/compare.js';
import { lazyTree, overlayTree } from './write/disk-tree.js';
import { headerText } from './write/header.js';
import { draftPath, dropDraft, readDraft, saveDraft } from './write/draft-migration.js';
import { historyDir, migrationLayout } from './emit/migrations/layout.js';
import { inputsKey, recordMatches, recordPath, saveRecord } from './write/run-record.js';
import { writeTree } from './write/write-tree.js';

/**
 * The keys of the project's catalogs, for the check of `messages:` keys
 * (docs/i18n.md "Checks"); a catalog that cannot be read is reported.
 */
async function messageKeysFor(
  root: string,
  plugins: readonly string[] | undefined,
  diagnostics: Diagnostics,
): Promise<ReadonlySet<string> | undefined> {
  const { projectMessageKeys } = await import('./load/message-catalogs.js');
  const found = projectMessageKeys(root, plugins ?? []);
  if ('keys' in found) return found.keys;
  diagnostics.add({ file: 'lang', line: 1, column: 1 }, 'lang', found.error);
  return undefined;
}

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
  /**
   * The package the generated files import the runtime from, by its public
   * entries (`bindery/http`, `bindery/routing`, …; docs/package.md). Default
   * `bindery`. Generated code never imports the runtime by a relative path.
   */
  runtimePackage?: string;
  /**
   * Use the record of the last successful run (`node_modules/.cache/bindery/`)
   * to answer "up to date" without generating when neither the inputs nor the
   * output folder changed since. Default true.
   */
  useRecord?: boolean;
  /**
   * Record the migration this run writes as a draft (`bindery make:resource`;
   * docs/generator.md "Draft migrations"): until a command applies the
   * migrations, the next runs fold the schema's changes into it. Default false.
   */
  draftMigration?: boolean;
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
  /**
   * Advice that does not stop generation (a list filter or sort on a column
   * no index starts with), sorted like `diagnostics`. Empty when the run
   * record answered without compiling (the warnings were given by the run
   * that compiled the same schema).
   */
  warnings: SchemaDiagnostic[];
  /** The draft migration as this run leaves it (`generated/migrations/0002_create_blog_posts.sql`), when there is one. */
  draft?: string;
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
  const runtime = options.runtimePackage ?? 'bindery';
  const augmentServices = options.augmentServices ?? !project.isPlugin;
  const allowDestructive = options.allowDestructive ?? false;
  const disk = await lazyTree(outDir);

  // Nothing changed since the last successful run: the output is what it was.
  const record = options.useRecord === false || options.rebuildSnapshot === true || diagnostics.any ? null : await recordPath(root, outDir);
  const key = record
    ? await inputsKey(root, schemaDir, { schema: posix(relative(root, schemaDir)), outName, runtime, augmentServices, allowDestructive })
    : '';
  if (record && (await recordMatches(record, key, disk))) return { ok: true, diagnostics: [], changed: [], diff: '', warnings: [] };

  // The heavy modules (yaml, ajv, ts-morph) load only when there is work to do.
  const [{ loadSchema }, { buildModel }, emit] = await Promise.all([
    import('./load/load-schema.js'),
    import('./model/build-model.js'),
    import('./emit/emit-all.js'),
  ]);
  // The loaded files (YAML documents) live only until the model is built.
  const model = await loadSchema(root, schemaDir, diagnostics).then(async (files) => {
    if (diagnostics.any) return undefined;
    return buildModel(files, diagnostics, project.pluginTables, await messageKeysFor(root, project.plugins, diagnostics));
  });
  if (!model) return failed(diagnostics);

  const draftFile = draftPath(root, outDir);
  const layout = migrationLayout(project.databases, disk);
  const recordDir = historyDir(layout[0]!);
  const draft = options.rebuildSnapshot ? undefined : await readDraft(draftFile, (name) => disk.get(`${recordDir}/${name}.sql`));
  const ctx: EmitContext = { model, header: headerText(posix(relative(root, schemaDir))), runtime, augmentServices };
  const emitted = emit.emitAll(
    ctx,
    {
      outName,
      disk,
      plugins: project.plugins,
      allowDestructive,
      rebuildSnapshot: options.rebuildSnapshot ?? false,
      check: options.check ?? false,
      databases: project.databases,
      ...(draft !== undefined ? { draft } : {}),
    },
    diagnostics,
  );
  if (!emitted) return failed(diagnostics);
  const generated = emitted.files;
  // Folded: the draft's file is replaced by the migration generated (or removed when none is).
  const folded = emitted.foldedDraft ? draft : undefined;
  const replaceable = [...(folded !== undefined ? layout.map((l) => `${l.dir}/${folded}.sql`) : []), ...emitted.moved];
  if (folded !== undefined && recordDir !== layout[0]!.dir) replaceable.push(`${recordDir}/${folded}.sql`);
  const comparison = compareTree(generated, disk, replaceable);
  const changed = [...comparison.write.map((f) => f.path), ...comparison.remove].sort().map((p) => `${outName}/${p}`);
  // The tree as this run leaves it, the generated files' text taken from memory rather than read back,
  // and hashed piece by piece (generated-file.ts: hashing the text whole would make it one flat string).
  const after = () => overlayTree(disk, new Map(generated.map((f) => [f.path, f.content])), comparison.remove);
  const hashes = () => new Map(generated.map((f) => [f.path, fileHash(f)]));
  if (options.check) {
    if (record && changed.length === 0) await saveRecord(record, key, after(), hashes());
    return { ok: true, diagnostics: [], changed, diff: diffText(comparison, disk, outName), warnings: diagnostics.warnings() };
  }
  await writeTree(outDir, comparison);
  if (record) await saveRecord(record, key, after(), hashes());
  const left =
    folded !== undefined || options.draftMigration
      ? await keepDraft(draftFile, layout[0]!.dir, generated, comparison.write, folded)
      : undefined;
  return {
    ok: true,
    diagnostics: [],
    changed,
    diff: '',
    warnings: diagnostics.warnings(),
    ...(left ? { draft: `${outName}/${left}` } : {}),
  };
}

/**
 * Record the draft migration after a run: the migration the run wrote (a
 * new draft, or the old one folded, perhaps under a new name), or the old
 * draft unchanged; none when the fold left no migration (the record goes).
 * @param path the draft record (null without `node_modules`: no drafts).
 * @param dir the folder of the history of record's migrations (`migrations`, `migrations/postgres`).
 * @returns the draft's path in the output folder, or undefined.
 */
async function keepDraft(
  path: string | null,
  dir: string,
  generated: readonly GeneratedFile[],
  written: readonly GeneratedFile[],
  draft: string | undefined,
): Promise<string | undefined> {
  if (path === null) return undefined;
  const migration = generated.find((f) => f.path.startsWith(`${dir}/`) && /^[^/]+\.sql$/.test(f.path.slice(dir.length + 1)));
  if (migration !== undefined && (written.includes(migration) || migration.path === `${dir}/${draft}.sql`)) {
    await saveDraft(path, migration.path.slice(dir.length + 1, -'.sql'.length), migration.content);
    return migration.path;
  }
  if (draft !== undefined) await dropDraft(path);
  return undefined;
}

function failed(diagnostics: Diagnostics): GenerateResult {
  return { ok: false, diagnostics: diagnostics.sorted(), changed: [], diff: '', warnings: diagnostics.warnings() };
}

function posix(path: string): string {
  return path.split(sep).join('/');
}
