/**
 * `generated/validators.ts`: ajv standalone validation code compiled at
 * generate time (ARCHITECTURE.md "Generator pipeline"; CONTRIBUTING.md "Dependency notes"), one export per route
 * with at least one rule, named by the camelCase route name
 * (`notesCreate`) and typed `CompiledValidator`.
 *
 * ajv compiles every route's schema (one instance per batch of schemas,
 * see `SCHEMAS_PER_AJV`); the standalone code is
 * taken route by route, and every top-level name in it is given the route's
 * prefix (`notesCreate_validate`, `notesCreate_pattern2`, numbered within
 * the route): a route's code depends only on that route's rules, so a rule
 * added to one route changes only that route's lines (see docs/generator.md,
 * "Stable output"). Each route's code is followed by its export, and
 * preceded by its fingerprint line (`fingerprint.ts`), which lets
 * `generate` (and `--check`) reuse the code on disk instead of compiling it again.
 *
 * The ajv body is plain JavaScript, so the module carries `// @ts-nocheck`
 * after the header; its exports are annotated, so importers are fully typed.
 * The file is written as text, not through ts-morph: the ajv code is
 * formatted by `formatAjvCode` in linear time.
 */
import { Ajv } from 'ajv';
import formatsModule from 'ajv-formats';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { validatorName } from '../../model/names.js';
import type { EmitContext } from '../context.js';
import { fileOfParts, type GeneratedFile } from '../../write/generated-file.js';
import { fingerprintLine, validatorInputs, writtenValidators } from './fingerprint.js';
import { ajvFormatMemory, fillTemplate, formatAjvTemplate, joinTemplates, type AjvFormatMemory } from './format-ajv.js';
import { addBudgetKeywords } from './budget-keywords.js';
import { validatorSchema } from './validator-schema.js';

type AddFormats = (ajv: Ajv) => Ajv;
type StandaloneCode = (ajv: Ajv, refs: Record<string, string>) => string;
const addFormats = ((formatsModule as unknown as { default?: AddFormats }).default ?? formatsModule) as unknown as AddFormats;
const standaloneCode = ((standaloneModule as unknown as { default?: StandaloneCode }).default ??
  standaloneModule) as unknown as StandaloneCode;

/** One route's validator: its export name, doc line, schema (and as JSON), and once compiled or reused its code. */
interface Use {
  readonly name: string;
  readonly doc: string;
  readonly json: string;
  readonly schema: Record<string, unknown>;
  body?: string;
}

/** Names ajv gives the top-level declarations of standalone code. */
const AJV_NAME = /^(validate|schema|pattern|func|formats)\d+$/;

/**
 * Emit `validators.ts` (see the module comment).
 * @param written the file's text on disk, to reuse each route's code whose
 *   fingerprint matches instead of compiling it (see
 *   `fingerprint.ts`); undefined compiles every route.
 * @throws {Error} when ajv rejects a schema or its output does not have the expected export line (a bug in bindery, not in the schema).
 */
export function emitValidators(ctx: EmitContext, written?: string): GeneratedFile {
  const head = `// ${ctx.header}\n// @ts-nocheck\n`;
  const uses: (Use & { inputs: string })[] = [];
  for (const route of ctx.model.routes) {
    const schema = validatorSchema(route);
    if (!schema) continue;
    const name = validatorName(route.name);
    const keys = route.input.filter((f) => f.rules.length > 0 || f.fields !== undefined).map((f) => f.key);
    const doc = `Validates the input of route \`${route.name}\` (${route.method} ${route.path}): ${keys.join(', ')}.`;
    const json = JSON.stringify(schema);
    uses.push({ name, doc, json, schema, inputs: validatorInputs(name, doc, json) });
  }
  if (uses.length === 0) return { path: 'validators.ts', content: `${head}export {};\n` };

  const previous = written === undefined ? undefined : writtenValidators(written);
  const stale = uses.filter((use) => {
    const old = previous?.get(use.name);
    if (old !== undefined && fingerprintLine(use.inputs, old.body) === old.line) use.body = old.body;
    return use.body === undefined;
  });
  if (stale.length > 0) compile(stale);

  const body: string[] = [];
  for (const use of uses) {
    if (body.length > 0) body.push('');
    body.push(fingerprintLine(use.inputs, use.body!), use.body!);
  }
  const content = [
    "import { createRequire } from 'node:module';",
    `import type { CompiledValidator } from '${ctx.runtime}/routing';`,
    '',
    '// ajv standalone code calls require() for format and helper functions.',
    'const require = createRequire(import.meta.url);',
    '',
    ...body,
  ].join('\n');
  return fileOfParts('validators.ts', head, content, '\n');
}

/**
 * Compile the routes' validators into `use.body` (their code, doc line and
 * export line). Routes with the same rules share one compilation (ajv's code
 * depends only on the schema): it is compiled, formatted and scanned for
 * ajv's names once; each route only fills in its own names. The distinct
 * schemas go through in batches of `SCHEMAS_PER_AJV`, each with its own ajv
 * instance, so that only one batch's compilations are held at a time.
 */
function compile(uses: readonly Use[]): void {
  const groups = new Map<string, Use[]>();
  for (const use of uses) {
    const group = groups.get(use.json);
    if (group) group.push(use);
    else groups.set(use.json, [use]);
  }
  const distinct = [...groups.values()];
  const memory = ajvFormatMemory();
  for (let start = 0; start < distinct.length; start += SCHEMAS_PER_AJV)
    compileBatch(distinct.slice(start, start + SCHEMAS_PER_AJV), memory);
}

/** One batch of {@link compile}: each group shares one schema, compiled under its first route's name. */
function compileBatch(groups: readonly (readonly Use[])[], memory: AjvFormatMemory): void {
  const ajv = newAjv();
  const codes: string[] = [];
  const validates: string[] = [];
  for (const group of groups) {
    const { name, schema } = group[0]!;
    ajv.addSchema(schema, name);
    const raw = standaloneCode(ajv, { [name]: name }).replace(/^"use strict";\n?/, '');
    const exportLine = new RegExp(`^export const ${name} = (validate\\d+);\\n`, 'm');
    const match = exportLine.exec(raw);
    if (!match)
      throw new Error(`bindery: ajv standalone output has no export line for ${name}; the ajv version may have changed its output format`);
    codes.push(raw.replace(exportLine, '').trim());
    validates.push(match[1]!);
  }

  // Format the batch's code at once (formatting changes only the spaces
  // between tokens and keeps the line count; a name is a name, so
  // formatting before renaming gives the same text as after), then cut it
  // back into one template per compilation.
  const formatted = formatAjvTemplate(codes.join('\n\n'), memory, (id) => AJV_NAME.test(id));
  let line = 0;
  codes.forEach((code, k) => {
    const count = code.split('\n').length;
    const template = joinTemplates(formatted.slice(line, line + count));
    line += count + 1;
    for (const use of groups[k]!) {
      const renamed = localNames(use.name);
      use.body = `${fillTemplate(template, renamed)}\n/** ${use.doc} */\nexport const ${use.name}: CompiledValidator = ${renamed(validates[k]!)!};`;
    }
  });
}

/**
 * How many distinct schemas one batch (one ajv instance) compiles. An
 * instance keeps everything it compiled (schema environments, the code, the
 * constants of its shared scope: about 0.1 MB per schema), so one instance
 * for a 1,000-route schema would hold some 30 MB until the end; a fresh
 * instance costs about 1 ms. Small batches keep the peak memory down: what
 * a batch holds lives only while a few MB are allocated, so it dies in the
 * young generation instead of being promoted to the old one as garbage
 * (at 1,000 routes on Node 24: about 325 MB peak with 5, 356 with 25, for
 * the same CPU). The output does not depend on it: each
 * compilation's names are renamed per route, and the formatter's spacing
 * carries over from batch to batch.
 */
const SCHEMAS_PER_AJV = 5;

/** An ajv instance with the generator's options, the formats of ajv-formats and the bounded keywords (`budget-keywords.ts`). */
export function newAjv(): Ajv {
  // validateSchema: false: the schemas are bindery's own (validator-schema.ts), so
  // checking each against the draft-07 meta-schema (compiled anew per instance)
  // only cost time; ajv's strict mode still refuses an unknown keyword.
  const ajv = new Ajv({ allErrors: true, strictTypes: false, validateSchema: false, code: { source: true, esm: true, lines: true } });
  addFormats(ajv);
  return addBudgetKeywords(ajv);
}

/** Renames ajv's numbered names to `<route>_<kind>`, `<route>_<kind>2`, … in order of first appearance. */
function localNames(route: string): (name: string) => string | undefined {
  const names = new Map<string, string>();
  const counts = new Map<string, number>();
  return (name) => {
    const kind = AJV_NAME.exec(name)?.[1];
    if (kind === undefined) return undefined;
    let local = names.get(name);
    if (local === undefined) {
      const n = (counts.get(kind) ?? 0) + 1;
      counts.set(kind, n);
      local = `${route}_${kind}${n === 1 ? '' : n}`;
      names.set(name, local);
    }
    return local;
  };
}
