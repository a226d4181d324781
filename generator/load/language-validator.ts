/**
 * The validator of the language's JSON Schema (`generator/language/bindery.schema.json`)
 * used by `check-structure.ts`. Compiling that schema with ajv takes about
 * 0.1 s, on every cold `generate`; so `npm run build` writes its standalone
 * code next to the schema in `dist/` (`LANGUAGE_VALIDATOR_FILE`, from
 * {@link languageValidatorSource}), and an installed package loads that.
 * From the TypeScript sources (the repository, the tests) it is compiled.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';

/** The language schema's file. */
const LANGUAGE_SCHEMA_URL = new URL('../language/bindery.schema.json', import.meta.url);

/** The compiled validator's file, written by `npm run build` into `dist/generator/language/`. */
export const LANGUAGE_VALIDATOR_FILE = 'bindery.schema.validate.cjs';

const LANGUAGE_VALIDATOR_URL = new URL(`../language/${LANGUAGE_VALIDATOR_FILE}`, import.meta.url);

/**
 * ajv's options for the language schema. validateSchema: false: the schema
 * is bindery's own, checked against the draft-07 meta-schema by
 * test/generator/language-schema.test.ts; compiling the meta-schema on
 * every run only cost time.
 */
const OPTIONS: Options = { allErrors: true, verbose: true, allowUnionTypes: true, validateSchema: false };

type StandaloneCode = (ajv: Ajv, refs?: ValidateFunction) => string;
const standaloneCode = ((standaloneModule as unknown as { default?: StandaloneCode }).default ??
  standaloneModule) as unknown as StandaloneCode;

function compileLanguageSchema(source: boolean): { ajv: Ajv; validate: ValidateFunction } {
  const ajv = new Ajv({ ...OPTIONS, ...(source ? { code: { source: true } } : {}) });
  const validate = ajv.compile(JSON.parse(readFileSync(LANGUAGE_SCHEMA_URL, 'utf8')) as object);
  return { ajv, validate };
}

/** The standalone code (CommonJS) of the language schema's validator, for `npm run build`. */
export function languageValidatorSource(): string {
  const { ajv, validate } = compileLanguageSchema(true);
  return standaloneCode(ajv, validate);
}

let compiled: ValidateFunction | undefined;

/** The language schema's validator: the built one when `dist/` has it, else compiled (once per process). */
export function languageValidator(): ValidateFunction {
  if (compiled === undefined) {
    const built = fileURLToPath(LANGUAGE_VALIDATOR_URL);
    compiled = existsSync(built) ? (createRequire(import.meta.url)(built) as ValidateFunction) : compileLanguageSchema(false).validate;
  }
  return compiled;
}
