/**
 * The language's JSON Schema (`generator/language/bindery.schema.json`) is a
 * valid draft-07 schema: `check-structure.ts` compiles it without checking
 * it against the meta-schema (`validateSchema: false`), so this test does.
 */
import { readFile } from 'node:fs/promises';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';

describe('language schema', () => {
  it('is valid against the draft-07 meta-schema', async () => {
    const schema = JSON.parse(await readFile(new URL('../../generator/language/bindery.schema.json', import.meta.url), 'utf8')) as object;
    const ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
    expect(ajv.validateSchema(schema), ajv.errorsText(ajv.errors)).toBe(true);
    expect(() => ajv.compile(schema)).not.toThrow();
  });
});
