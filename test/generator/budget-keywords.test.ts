/**
 * The validators' bounded keywords (generator/emit/validators/budget-keywords.ts;
 * docs/http.md "Work per request"): a field stops at its first failing rule,
 * `distinct` is linear, `regex:` runs on RE2 — in code compiled by ajv and in
 * the standalone code the generator writes.
 */
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { describe, expect, it } from 'vitest';
import { addBudgetKeywords } from '../../generator/emit/validators/budget-keywords.js';
import { parseRule } from '../../runtime/validation/rule-parser.js';

type StandaloneCode = (ajv: Ajv, refs?: unknown) => string;
const standaloneCode = ((standaloneModule as unknown as { default?: StandaloneCode }).default ?? standaloneModule) as StandaloneCode;

const schema = {
  properties: {
    tags: { allOf: [{ maxItems: 5 }, { uniqueItems: true }, { items: { pattern: '^[a-z]+$' } }] },
    list: { allOf: [{ uniqueItems: true }] },
    // A built-in pattern before the linear one: the generated module declares patterns before functions.
    code: { allOf: [{ pattern: '\\S' }, { linearPattern: '^(a+)+$' }] },
    title: { allOf: [{ maxLength: 3 }] },
    name: { allOf: [{ minLength: 2 }, { maxLength: 4 }] },
  },
};

interface Validate {
  (data: unknown): boolean;
  errors?: Array<{ schemaPath: string; instancePath: string }> | null;
}

function compiled(): Validate {
  const ajv = addBudgetKeywords(new Ajv({ allErrors: true, strictTypes: false }));
  return ajv.compile(schema) as Validate;
}

function standalone(): Validate {
  const ajv = addBudgetKeywords(new Ajv({ allErrors: true, strictTypes: false, code: { source: true } }));
  const code = standaloneCode(ajv, ajv.compile(schema));
  const module = { exports: {} as Validate };
  new Function('module', 'exports', 'require', code)(module, module.exports, createRequire(import.meta.url));
  return module.exports;
}

describe.each([
  ['compiled', compiled],
  ['standalone', standalone],
])('Budget keywords | %s', (_kind, make) => {
  const validate = make();
  const paths = () => (validate.errors ?? []).map((e) => `${e.schemaPath} ${e.instancePath}`);

  it('a field stops at its first failing rule; the other fields are still checked; one error per field', () => {
    const tags = Array.from({ length: 100_000 }, () => 'BAD');
    const started = performance.now();
    expect(validate({ tags, title: 'long' })).toBe(false);
    expect(performance.now() - started).toBeLessThan(50);
    expect(paths()).toEqual(['#/properties/tags/allOf/0/maxItems /tags', '#/properties/title/allOf/0/maxLength /title']);
  });

  it('each: stops at the first bad item', () => {
    expect(validate({ tags: ['ok', 'BAD', 'WORSE'] })).toBe(false);
    expect(paths()).toEqual(['#/properties/tags/allOf/2/items/pattern /tags/1']);
  });

  it('distinct is linear and means deep equality for JSON values (keys in any order), "__proto__" included', () => {
    const many = Array.from({ length: 200_000 }, (_, i) => `t${i}`);
    const started = performance.now();
    expect(validate({ list: many })).toBe(true);
    expect(validate({ list: [...many, 't0'] })).toBe(false);
    // Pairwise, 200,000 items would be 2 × 10¹⁰ comparisons (minutes): seconds are linear with room for a busy machine.
    expect(performance.now() - started).toBeLessThan(3000);
    expect(paths()).toEqual(['#/properties/list/allOf/0/uniqueItems /list']);
    expect(validate({ list: ['__proto__', '__proto__'] })).toBe(false);
    expect(
      validate({
        list: [
          { a: 1, b: [1, { c: 2 }] },
          { b: [1, { c: 2 }], a: 1 },
        ],
      }),
    ).toBe(false);
    expect(validate({ list: [{ a: 1 }, { a: '1' }, 1, '1', null, [1]] })).toBe(true);
    expect(validate({ list: [new Date(5), new Date(5)] })).toBe(false);
  });

  it('lengths count characters (code points), and a string over twice the limit in UTF-16 units is too long without counting', () => {
    expect(validate({ name: '💥💥💥💥' })).toBe(true);
    expect(validate({ name: '💥' })).toBe(false);
    expect(paths()).toEqual(['#/properties/name/allOf/0/minLength /name']);
    expect(validate({ name: 'ab' })).toBe(true);
    expect(validate({ name: '💥💥💥💥💥' })).toBe(false);
    expect(paths()).toEqual(['#/properties/name/allOf/1/maxLength /name']);
    const long = 'a'.repeat(10_000_000);
    const started = performance.now();
    for (let i = 0; i < 100; i++) validate({ title: long });
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('regex: runs on RE2 in linear time (^(a+)+$ on 100,000 characters)', () => {
    const started = performance.now();
    expect(validate({ code: `${'a'.repeat(100_000)}!` })).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(paths()).toEqual(['#/properties/code/allOf/1/linearPattern /code']);
    expect(validate({ code: 'aaa' })).toBe(true);
  });
});

describe('Budget keywords | regex: patterns RE2 cannot run are schema errors', () => {
  const string = { kind: 'string', array: false, nullable: false } as const;
  it('lookaround and backreferences are refused, with the reason', () => {
    for (const pattern of ['(?=a)b', '(a)\\1', '(?<!x)y']) {
      const parsed = parseRule(`regex:${pattern}`, string);
      expect(parsed.ok, pattern).toBe(false);
      expect((parsed as { message: string }).message).toMatch(/linear-time engine \(RE2\) cannot run/);
    }
    expect(parseRule('regex:^[\\p{L}]+(-[\\p{L}]+)*$', string).ok).toBe(true);
  });
});
