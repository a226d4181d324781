/**
 * The keywords that bound a validator's work (docs/http.md "Work per
 * request"): the generated validators are compiled by an ajv whose `allOf`
 * and `uniqueItems` are replaced by versions with the same meaning and a
 * bounded cost, plus one keyword of bindery's own, `linearPattern`.
 *
 * - `allOf` checks its subschemas in order and stops at the first that
 *   fails; each is checked as ajv checks without `allErrors` (an `items`
 *   loop stops at the first bad item), yet without ending the validation of
 *   the other fields. A field's rules are `{ allOf: [rule0, rule1, …] }`
 *   (`validator-schema.ts`), so a list refused by `max:5` is never compared
 *   pair by pair nor checked item by item, and one field costs at most one
 *   error object. Valid or not is the same as standard `allOf`; only the
 *   errors after the first are not made, and the runtime reports only the
 *   first failing rule of a field anyway (runtime/validation/input-validator.ts).
 * - `uniqueItems` is linear: items go into a `Map`, scalars as they are,
 *   objects (a `json` list's items, dates, files) by their JSON text with
 *   object keys sorted, so equal means what ajv's deep equality means for
 *   JSON values. ajv's own is pairwise for such items (quadratic), and its
 *   scalar shortcut misses duplicate `"__proto__"` strings.
 * - `maxLength` and `minLength` count characters (code points) only when
 *   the string's length in UTF-16 units leaves the answer open: a string of
 *   more than twice the limit in units is too long without counting (a
 *   10 MB string for a `max:200` field is refused at once).
 * - `linearPattern` is the `regex:` rule: the pattern runs on RE2
 *   (`re2js`, a linear-time engine without backtracking), so no input can
 *   make it take more than time proportional to its length.
 *
 * The generated code needs nothing but `re2js` (required from the
 * validators module, like ajv's own helpers) when a `regex:` rule is used.
 */
import { _, type Ajv, type CodeKeywordDefinition, type KeywordCxt, type Name, str } from 'ajv';
import { alwaysValidSchema, useFunc } from 'ajv/dist/compile/util.js';
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';
import { RE2JS } from 're2js';

/** The keyword of the `regex:` rule's fragment in validator schemas (`{ linearPattern: "^[a-z]+$" }`). */
export const LINEAR_PATTERN = 'linearPattern';

/** `allOf` that stops at the first failing subschema (see the module comment). */
const firstFailureAllOf: CodeKeywordDefinition = {
  keyword: 'allOf',
  schemaType: 'array',
  code(cxt: KeywordCxt) {
    const { gen, schema, it } = cxt;
    if (!Array.isArray(schema)) throw new Error('bindery: allOf takes an array');
    const valid = gen.name('valid');
    let open = 0;
    schema.forEach((sch: unknown, i: number) => {
      if (alwaysValidSchema(it, sch as boolean)) return;
      // compositeRule: errors are collected (not returned at once); allErrors: false: the rule stops at its first failure.
      const sub = cxt.subschema({ keyword: 'allOf', schemaProp: i, allErrors: false, compositeRule: true }, valid);
      cxt.mergeEvaluated(sub);
      gen.if(valid);
      open++;
    });
    for (let k = 0; k < open; k++) gen.endIf();
  },
};

/** The JSON text of an object with its keys sorted (a `JSON.stringify` replacer). */
function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort())
    Object.defineProperty(sorted, k, { value: (value as Record<string, unknown>)[k], enumerable: true });
  return sorted;
}

/** The key of a list item that is an object: a date by its time, anything else by its JSON text with sorted keys. */
const itemKey = Object.assign(
  (item: object): string => (item instanceof Date ? `date:${item.getTime()}` : `json:${JSON.stringify(item, sortedKeys)}`),
  {
    // The same function as one line of code for the generated module (ajv's `useFunc` emits `const <name> = <code>;`).
    code: '(item) => item instanceof Date ? "date:" + item.getTime() : "json:" + JSON.stringify(item, (k, v) => v === null || typeof v !== "object" || Array.isArray(v) ? v : Object.keys(v).sort().reduce((o, key) => Object.defineProperty(o, key, { value: v[key], enumerable: true }), {}))',
  },
);

/** Linear `uniqueItems` (see the module comment); same error shape as ajv's (`params: { i, j }`). */
const linearUniqueItems: CodeKeywordDefinition = {
  keyword: 'uniqueItems',
  type: 'array',
  schemaType: 'boolean',
  error: {
    message: ({ params: { i, j } }) => str`must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
    params: ({ params: { i, j } }) => _`{i: ${i}, j: ${j}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data, schema } = cxt;
    if (schema !== true) return;
    const valid = gen.let('valid', true);
    const i = gen.let('i', 0);
    const j = gen.let('j');
    cxt.setParams({ i, j });
    const keyOf = useFunc(gen, itemKey);
    const scalars = gen.const('scalars', _`new Map()`);
    const objects = gen.const('objects', _`new Map()`);
    const item = gen.let('item');
    gen.for(_`; ${i} < ${data}.length; ${i}++`, () => {
      gen.assign(item, _`${data}[${i}]`);
      const seen: Name = gen.const('seen', _`${item} !== null && typeof ${item} == "object" ? ${objects} : ${scalars}`);
      gen.if(_`${seen} === ${objects}`, () => gen.assign(item, _`${keyOf}(${item})`));
      gen.assign(j, _`${seen}.get(${item})`);
      gen.if(_`${j} !== undefined`, () => {
        cxt.error();
        gen.assign(valid, false).break();
      });
      gen.code(_`${seen}.set(${item}, ${i})`);
    });
    cxt.ok(valid);
  },
};

/** ajv's character count (code points of a UTF-16 string), with its `code` for standalone output. */
const ucs2length = ((ucs2lengthModule as unknown as { default?: unknown }).default ?? ucs2lengthModule) as ((s: string) => number) & {
  code: string;
};

/** `maxLength` / `minLength` that count only when the length in UTF-16 units leaves the answer open (see the module comment). */
function limitLength(keyword: 'maxLength' | 'minLength'): CodeKeywordDefinition {
  const max = keyword === 'maxLength';
  return {
    keyword,
    type: 'string',
    schemaType: 'number',
    error: {
      message: ({ schemaCode }) => str`must NOT have ${max ? 'more' : 'fewer'} than ${schemaCode} characters`,
      params: ({ schemaCode }) => _`{limit: ${schemaCode}}`,
    },
    code(cxt: KeywordCxt) {
      const { gen, data, schemaCode } = cxt;
      const count = useFunc(gen, ucs2length);
      // A code point takes one or two UTF-16 units: count = units only below the limit, ≥ units / 2 always.
      cxt.fail(
        max
          ? _`${data}.length > ${schemaCode} && (${data}.length > 2 * ${schemaCode} || ${count}(${data}) > ${schemaCode})`
          : _`${data}.length < ${schemaCode} || (${data}.length < 2 * ${schemaCode} && ${count}(${data}) < ${schemaCode})`,
      );
    },
  };
}

/** Compiled patterns by source: each batch's fresh ajv instance asks again for the same patterns (a compiled RE2 is immutable). */
const compiledPatterns = new Map<string, RE2JS>();

/** `linearPattern`: the `regex:` rule on RE2 (see the module comment). */
const linearPattern: CodeKeywordDefinition = {
  keyword: LINEAR_PATTERN,
  type: 'string',
  schemaType: 'string',
  error: {
    message: ({ schemaCode }) => str`must match pattern "${schemaCode}"`,
    params: ({ schemaCode }) => _`{pattern: ${schemaCode}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data, schema } = cxt;
    // The pattern's own code requires re2js: ajv writes a module's constants grouped by kind (patterns
    // before functions), so a pattern may not refer to a function constant.
    const source = String(schema);
    let ref = compiledPatterns.get(source);
    if (ref === undefined) {
      ref = RE2JS.compile(source);
      compiledPatterns.set(source, ref);
    }
    const rx = gen.scopeValue('pattern', {
      key: `re2:${source}`,
      ref,
      code: _`require("re2js").RE2JS.compile(${source})`,
    });
    cxt.fail(_`!${rx}.test(${data})`);
  },
};

/**
 * Give `ajv` the bounded keywords (see the module comment): `allOf`,
 * `uniqueItems`, `maxLength` and `minLength` replace ajv's own,
 * `linearPattern` is added.
 */
export function addBudgetKeywords(ajv: Ajv): Ajv {
  for (const keyword of ['allOf', 'uniqueItems', 'maxLength', 'minLength']) ajv.removeKeyword(keyword);
  ajv.addKeyword(firstFailureAllOf);
  ajv.addKeyword(linearUniqueItems);
  ajv.addKeyword(limitLength('maxLength'));
  ajv.addKeyword(limitLength('minLength'));
  ajv.addKeyword(linearPattern);
  return ajv;
}
