/**
 * `bindery make:resource <Name>` (docs/cli.md): a schema file with a
 * resource and its CRUD routes, typed handlers, wired into
 * `app/handlers/index.ts`, then `generate`.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command, Option } from 'clipanion';
import { binderyPackageRoot } from '../../support/package-root.js';
import { BinderyCommand } from '../../app/base-command.js';
import { needDevTool } from '../../support/dev-tools.js';

/** The names a resource called `name` gets: `BlogPost` → table `blog_posts`, routes `blogPosts.*`, path `/blog-posts`. */
export interface ResourceNames {
  readonly Name: string;
  readonly table: string;
  readonly routes: string;
  readonly path: string;
  readonly singular: string;
  readonly plural: string;
}

/**
 * Derive the names of resource `name` (PascalCase, e.g. `BlogPost`).
 *
 * @returns the names, or a reason the name is refused.
 */
export function resourceNames(name: string): ResourceNames | { readonly error: string } {
  if (!/^[A-Z][A-Za-z0-9]{0,62}$/.test(name))
    return { error: `"${name}" is not a resource name: use PascalCase letters and digits, e.g. BlogPost` };
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(' ');
  const last = words.pop()!;
  const pluralLast = /(s|x|z|ch|sh)$/.test(last) ? `${last}es` : /[^aeiou]y$/.test(last) ? `${last.slice(0, -1)}ies` : `${last}s`;
  const pluralWords = [...words, pluralLast];
  return {
    Name: name,
    table: pluralWords.join('_'),
    routes: pluralWords.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join(''),
    path: pluralWords.join('-'),
    singular: [...words, last].join(' '),
    plural: pluralWords.join(' '),
  };
}

/** Fill `{{key}}` placeholders. */
function fill(template: string, names: ResourceNames): string {
  return template.replace(/\{\{(\w+)\}\}/g, (all, key: string) => (key in names ? names[key as keyof ResourceNames] : all));
}

/** `bindery make:resource <Name>`. */
export class MakeResourceCommand extends BinderyCommand {
  static override paths = [['make:resource']];
  static override usage = Command.Usage({
    category: 'Schema',
    description: 'Add a resource with its CRUD routes and typed handlers, then generate.',
    details: `
      Writes \`schema/<name>.yaml\` (the resource with an id, a name and created_at; list, show, create, update and delete routes as JSON) and \`app/handlers/<name>.ts\` (handlers over Kysely, typed by the generated contracts), adds them to \`app/handlers/index.ts\`, then runs \`bindery generate\`, which writes the create migration as a draft: until \`bindery migrate\` (or \`start\`, \`dev\`) applies it, the next \`bindery generate\` folds the changes made to the fields into it instead of adding a second migration.

      Refuses (exit 2, nothing written) a name that is not PascalCase, or one whose resource, table, schema file or handler file exists.
    `,
    examples: [['Add blog posts', '$0 make:resource BlogPost']],
  });

  name = Option.String({ name: 'Name' });

  protected async run(): Promise<number> {
    const names = resourceNames(this.name);
    if ('error' in names) return this.usageError(names.error);
    const schemaFile = join('schema', `${names.path}.yaml`);
    const handlerFile = join('app', 'handlers', `${names.path}.ts`);
    const indexFile = join('app', 'handlers', 'index.ts');
    for (const file of [schemaFile, handlerFile]) if (existsSync(join(this.root, file))) return this.usageError(`${file} exists already`);
    const taken = await declaredNames(join(this.root, 'schema'));
    if (taken.has(names.Name)) return this.usageError(`a resource ${names.Name} exists already (${taken.get(names.Name)})`);
    if (taken.has(`table:${names.table}`))
      return this.usageError(`a table ${names.table} exists already (${taken.get(`table:${names.table}`)})`);

    const templates = join(binderyPackageRoot(), 'templates', 'make-resource');
    const schema = fill(await readFile(join(templates, 'schema.yaml.tmpl'), 'utf8'), names);
    const handlers = fill(await readFile(join(templates, 'handlers.ts.tmpl'), 'utf8'), names);
    const indexPath = join(this.root, indexFile);
    const index = existsSync(indexPath) ? await readFile(indexPath, 'utf8') : undefined;
    const wired = index === undefined ? undefined : wireHandlers(index, names);

    await writeFile(join(this.root, schemaFile), schema, { flag: 'wx' });
    await writeFile(join(this.root, handlerFile), handlers, { flag: 'wx' });
    if (wired !== undefined) await writeFile(indexPath, wired);
    needDevTool('ts-morph', { task: 'bindery make:resource' });
    const { generate, formatDiagnostic } = await import('../../../generator/index.js');
    // The create migration is a draft until migrated: editing the fields, then generating, rewrites it (docs/generator.md "Draft migrations").
    const result = await generate({ root: this.root, draftMigration: true });
    if (!result.ok) {
      for (const d of result.diagnostics) this.err(`${formatDiagnostic(d)}\n`);
      await rm(join(this.root, schemaFile), { force: true });
      await rm(join(this.root, handlerFile), { force: true });
      if (wired !== undefined && index !== undefined) await writeFile(indexPath, index);
      this.err(`make:resource: generate failed; nothing was kept.\n`);
      return 1;
    }
    this.out(`Created ${schemaFile} and ${handlerFile}${wired !== undefined ? `, added ${names.routes}Handlers to ${indexFile}` : ''}.\n`);
    this.out(`Generated ${result.changed.length} files: ${result.changed.join(', ')}\n`);
    const draft = result.draft === undefined ? '' : ` (it rewrites ${result.draft} with them until \`npx bindery migrate\` has applied it)`;
    this.out(
      `Next: edit the fields in ${schemaFile}, run \`npx bindery generate\`${draft}, then \`npx bindery migrate\` (or restart \`npx bindery dev\`).\n`,
    );
    if (wired === undefined) this.out(`Add ...${names.routes}Handlers from ./${names.path}.js to your app's handlers.\n`);
    return 0;
  }

  private usageError(message: string): number {
    this.err(`make:resource: ${message}; nothing written.\n`);
    return 2;
  }
}

/** Resource names (`Note`) and tables (`table:notes`) declared in `schema/*.yaml`, with the file. */
async function declaredNames(dir: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (!existsSync(dir)) return found;
  const { parse } = await import('yaml');
  for (const file of (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f)).sort()) {
    let doc: { resources?: Record<string, { table?: string }> } | null;
    try {
      doc = parse(await readFile(join(dir, file), 'utf8')) as typeof doc;
    } catch {
      continue;
    }
    for (const [name, resource] of Object.entries(doc?.resources ?? {})) {
      found.set(name, `schema/${file}`);
      if (typeof resource?.table === 'string') found.set(`table:${resource.table}`, `schema/${file}`);
    }
  }
  return found;
}

/** `app/handlers/index.ts` with the new handlers imported and spread into `handlers`, or undefined when its shape is not the usual one. */
function wireHandlers(index: string, names: ResourceNames): string | undefined {
  const close = index.lastIndexOf('} satisfies Handlers;');
  const imports = [...index.matchAll(/^import .*;$/gm)];
  const lastImport = imports.at(-1);
  if (close < 0 || lastImport === undefined) return undefined;
  const spread = `  ...${names.routes}Handlers,\n`;
  const withSpread = `${index.slice(0, close)}${spread}${index.slice(close)}`;
  const at = lastImport.index + lastImport[0].length;
  return `${withSpread.slice(0, at)}\nimport { ${names.routes}Handlers } from './${names.path}.js';${withSpread.slice(at)}`;
}
