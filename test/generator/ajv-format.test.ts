/**
 * Formatting ajv's code without TypeScript (`emit/validators/ajv-tokens.ts`
 * and `format-ajv.ts`): the spacing rules give the text the TypeScript
 * formatter gives, on the validators of the golden fixture (every rule),
 * the app, the example and a synthetic schema — and cover every line of
 * them, so a `generate` of those never loads TypeScript — and on lines of
 * the shapes ajv can write that those schemas do not hold.
 */
import { join } from 'node:path';
import standaloneModule from 'ajv/dist/standalone/index.js';
import type { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../generator/diagnostics.js';
import { ruleGaps, scanLine } from '../../generator/emit/validators/ajv-tokens.js';
import { newAjv } from '../../generator/emit/validators/emit-validators.js';
import { ajvFormatMemory, formatAjvCode } from '../../generator/emit/validators/format-ajv.js';
import { validatorSchema } from '../../generator/emit/validators/validator-schema.js';
import { formatTs } from '../../generator/emit/ts-source.js';
import { loadSchema } from '../../generator/load/load-schema.js';
import { buildModel } from '../../generator/model/build-model.js';
import { syntheticSchema } from '../support/synthetic-schema.js';
import { FIXTURES, REPO, tempProject } from './support.js';

type StandaloneCode = (ajv: Ajv, refs: Record<string, string>) => string;
const standaloneCode = ((standaloneModule as unknown as { default?: StandaloneCode }).default ??
  standaloneModule) as unknown as StandaloneCode;

/** The standalone code ajv writes for each route with rules of the schema folder `dir`. */
async function ajvCodes(root: string, dir: string): Promise<string[]> {
  const diagnostics = new Diagnostics();
  const model = buildModel(await loadSchema(root, dir, diagnostics), diagnostics);
  expect(diagnostics.any).toBe(false);
  const codes = new Map<string, string>();
  for (const route of model!.routes) {
    const schema = validatorSchema(route);
    if (!schema || codes.has(JSON.stringify(schema))) continue;
    const ajv = newAjv();
    ajv.addSchema(schema, 'v');
    codes.set(JSON.stringify(schema), standaloneCode(ajv, { v: 'v' }).replace(/^"use strict";\n?/, ''));
  }
  return [...codes.values()];
}

/** The lines the spacing rules do not cover (the JSON schema constants aside). */
function uncovered(code: string): string[] {
  return code
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^const schema\d* = \{.*\};$/.test(line))
    .filter((line) => {
      const tokens = scanLine(line);
      return tokens === null || ruleGaps(tokens) === null;
    });
}

describe('format-ajv | spacing without TypeScript', () => {
  it('gives the formatter’s text on every validator of the fixtures, the app, the example and a synthetic schema', {
    timeout: 120_000,
  }, async () => {
    const synthetic = await tempProject(
      Object.fromEntries([...syntheticSchema({ resources: 40, routes: 200 })].map(([name, text]) => [`schema/${name}`, text])),
    );
    try {
      const codes = [
        ...(await ajvCodes(join(FIXTURES, 'full'), join(FIXTURES, 'full/schema'))),
        ...(await ajvCodes(REPO, join(REPO, 'schema'))),
        ...(await ajvCodes(join(REPO, 'examples/realworld'), join(REPO, 'examples/realworld/schema'))),
        ...(await ajvCodes(synthetic.root, join(synthetic.root, 'schema'))),
      ];
      expect(codes.length).toBeGreaterThan(50);
      const byRules = ajvFormatMemory(true);
      const byFormatter = ajvFormatMemory(false);
      for (const code of codes) {
        expect(uncovered(code)).toEqual([]);
        expect(formatAjvCode(code, byRules)).toBe(formatAjvCode(code, byFormatter));
      }
    } finally {
      await synthetic.remove();
    }
  });

  it('gives the formatter’s text on the other lines ajv can write, or leaves them to the formatter', () => {
    const lines = [
      'const pattern0 = new RegExp("^[a-z]+$", "u");',
      "const formats0 = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+$/i;",
      'const func0 = require("ajv/dist/runtime/equal").default;',
      'function validate10(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){',
      'let vErrors = null;',
      'if(data && typeof data == "object" && !Array.isArray(data)){',
      'if((((data === "a") || (data === "b")) || (data === "c"))){',
      'const err0 = {instancePath:instancePath+"/x",schemaPath:"#/x",keyword:"type",params:{type: "string"},message:"must be string"};',
      'if(vErrors === null){vErrors = [err0];}',
      'else {',
      '}',
      'errors++;',
      'for(;i0 < data.length; i0++){',
      'for(let i1=0; i1<len0; i1++){',
      'const x = (v) => v instanceof Date ? "a" + v.toISOString() : "b" + v.map((a, b) => a === null || typeof a !== "object" ? a : a.x).reduce((c, d) => c.y(d, {k: d[0], l: true}), {});',
      'if(data.length > 0 && (data.length > 2 * 3 || func1(data) > -1)){',
      'return errors === 0;',
      'return [data];',
      'x = -y + +z - !w;',
      'if(!(typeof data === "number" && isFinite(data))){',
      'const n = data ? data.length : 0;',
      'data[i0] = coerced0;',
      'const m = data?.x ?? null;',
      'if(data.x !== undefined){',
      'break;',
      'return;',
      '} else if(x){',
      'const y = {...data, z: 1};',
      'let a = typeof (b);',
      'validate.errors = vErrors;',
      'const z = (a % 2) ^ (b & c) | (d << 1);',
    ];
    const memory = ajvFormatMemory(true);
    for (const line of lines) {
      const formatted = formatTs(line).replace(/\n+$/, '').trim();
      const tokens = scanLine(line);
      const gaps = tokens && ruleGaps(tokens);
      if (!gaps) continue;
      expect({ line, text: tokens!.map((t, i) => gaps[i] + t.text).join('') }).toEqual({ line, text: formatted });
    }
    // Whatever the rules leave aside still comes out formatted (the formatter spaces it).
    const code = lines.join('\n').replace('{vErrors = [err0];}', '{\nvErrors = [err0];\n}');
    expect(formatAjvCode(code, memory)).toBe(formatAjvCode(code, ajvFormatMemory(false)));
  });
});
