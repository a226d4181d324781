/**
 * `generated/validators.ts`: ajv standalone validation code compiled at
 * generate time (DESIGN.md 2; STACK.md gotchas 3 and 4), one export per route
 * with at least one rule, named by the camelCase route name
 * (`notesCreate`) and typed `CompiledValidator`.
 *
 * One ajv instance compiles every route's schema into one standalone module.
 * The ajv body is plain JavaScript, so the module carries `// @ts-nocheck`
 * after the header; its exports are annotated, so importers are fully typed.
 * The file is written as text, not through ts-morph: the ajv code is
 * formatted by `formatAjvCode` in linear time.
 */
import { Ajv } from 'ajv';
import formatsModule from 'ajv-formats';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { validatorName } from '../../model/names.js';
import type { EmitContext, GeneratedFile } from '../context.js';
import { formatAjvCode } from './format-ajv.js';
import { validatorSchema } from './validator-schema.js';

type AddFormats = (ajv: Ajv) => Ajv;
type StandaloneCode = (ajv: Ajv, refs: Record<string, string>) => string;
const addFormats = ((formatsModule as unknown as { default?: AddFormats }).default ?? formatsModule) as unknown as AddFormats;
const standaloneCode = ((standaloneModule as unknown as { default?: StandaloneCode }).default ?? standaloneModule) as unknown as StandaloneCode;

/**
 * Emit `validators.ts` (see the module comment).
 * @throws {Error} when ajv rejects a schema or its output does not have the expected export lines (a bug in bindery, not in the schema).
 */
export function emitValidators(ctx: EmitContext): GeneratedFile {
  const ajv = new Ajv({ allErrors: true, strictTypes: false, code: { source: true, esm: true, lines: true } });
  addFormats(ajv);
  const refs: Record<string, string> = {};
  const described: { name: string; doc: string }[] = [];
  for (const route of ctx.model.routes) {
    const schema = validatorSchema(route);
    if (!schema) continue;
    const name = validatorName(route.name);
    ajv.addSchema(schema, name);
    refs[name] = name;
    const keys = route.input.filter((f) => f.rules.length > 0).map((f) => f.key);
    described.push({ name, doc: `Validates the input of route \`${route.name}\` (${route.method} ${route.path}): ${keys.join(', ')}.` });
  }

  const head = `// ${ctx.header}\n// @ts-nocheck\n`;
  if (described.length === 0) return { path: 'validators.ts', content: `${head}export {};\n` };
  const code = standaloneCode(ajv, refs).replace(/^"use strict";\n?/, '');
  const functions = new Map<string, string>();
  const exportLine = /^export const ([A-Za-z_$][\w$]*) = (validate\d+);$/;
  const body: string[] = [];
  for (const line of code.split('\n')) {
    const match = exportLine.exec(line);
    if (match) functions.set(match[1]!, match[2]!);
    else body.push(line);
  }
  const exports: string[] = [];
  for (const { name, doc } of described) {
    const fn = functions.get(name);
    if (fn === undefined) throw new Error(`bindery: ajv standalone output has no export line for ${name}; the ajv version may have changed its output format`);
    exports.push(`/** ${doc} */`, `export const ${name}: CompiledValidator = ${fn};`);
  }
  const content = [
    "import { createRequire } from 'node:module';",
    `import type { CompiledValidator } from '${ctx.runtime}/routing/route-table.js';`,
    '',
    '// ajv standalone code calls require() for format and helper functions.',
    'const require = createRequire(import.meta.url);',
    '',
    formatAjvCode(body.join('\n').trim()),
    '',
    ...exports,
  ].join('\n');
  return { path: 'validators.ts', content: `${head}${content}\n` };
}
