/**
 * The language's JSON Schema (`generator/language/bindery.schema.json`): a
 * valid draft-07 schema (`language-validator.ts` compiles it without
 * checking it against the meta-schema), and the standalone validator
 * `npm run build` writes for it (`languageValidatorSource`) reports exactly
 * what the compiled one reports.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { languageValidator, languageValidatorSource } from '../../generator/load/language-validator.js';
import { FIXTURES, REPO } from './support.js';

describe('language schema', () => {
  it('is valid against the draft-07 meta-schema', async () => {
    const schema = JSON.parse(await readFile(new URL('../../generator/language/bindery.schema.json', import.meta.url), 'utf8')) as object;
    const ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
    expect(ajv.validateSchema(schema), ajv.errorsText(ajv.errors)).toBe(true);
    expect(() => ajv.compile(schema)).not.toThrow();
  });

  it('has a standalone validator (the one dist/ loads) that reports what the compiled one reports', async () => {
    // Under the repository, so that the code's require() of ajv's runtime helpers finds ajv, as in dist/.
    await mkdir(join(REPO, 'node_modules/.cache'), { recursive: true });
    const dir = await mkdtemp(join(REPO, 'node_modules/.cache/bindery-language-'));
    try {
      const file = join(dir, 'validate.cjs');
      await writeFile(file, languageValidatorSource());
      const standalone = createRequire(import.meta.url)(file) as ValidateFunction;
      const compiled = languageValidator();
      const schemaDir = join(FIXTURES, 'full/schema');
      const documents: unknown[] = [
        ...(await Promise.all((await readdir(schemaDir)).map(async (name) => load(await readFile(join(schemaDir, name), 'utf8'))))),
        { nonsense: true },
        { resources: { Note: { table: 3, fields: { id: { type: 'bigint', primaryKey: 'yes' }, body: { typ: 'text' } } } } },
        { routes: { 'notes.create': { method: 'FETCH', path: 'notes', input: { a: { type: 'string', validate: ['max:x', 3] } } } } },
        { groups: { api: { middleware: 'auth' } }, info: { title: 1 } },
        [],
        'text',
      ];
      for (const data of documents) {
        const ok = compiled(data);
        expect(standalone(data)).toBe(ok);
        expect(standalone.errors ?? null).toEqual(compiled.errors ?? null);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
