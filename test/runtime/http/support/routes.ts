/**
 * Route tables built by hand for the runtime tests, in the exact shape the
 * generator emits: rules parsed by `parseRule`, validators compiled by ajv
 * (`allErrors: true`, ajv-formats) over `{ allOf: [ruleSchema…] }` property
 * schemas, `required` listing fields with a `required` rule.
 */
import { Ajv } from 'ajv';
import * as ajvFormatsModule from 'ajv-formats';
import type {
  CompiledValidator,
  FieldPlan,
  FieldSource,
  HttpMethod,
  OutputPlan,
  RouteDefinition,
  ScalarKind,
} from '../../../../runtime/routing/route-table.js';
import type { ResultKind } from '../../../../runtime/results/result.js';
import { parseRule } from '../../../../runtime/validation/rule-parser.js';
import { ruleSchema } from '../../../../runtime/validation/rules.js';

const addFormats = ((ajvFormatsModule as any).default ?? ajvFormatsModule) as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, strictTypes: false }));

/** Where a field binds from: `json` (optionally with `form`), `form` only, or `query`/`path`/`header` with a name. */
export type FieldSourceSpec =
  | { json: string; form?: string }
  | { form: string }
  | { query: string }
  | { path: string }
  | { header: string };

/**
 * A field plan. `type` is the YAML spelling: `integer`, `string[]`, `timestamp?` (nullable).
 * @example field('limit', 'integer', { query: 'limit' }, ['min:0', 'max:100'], 20)
 */
export function field(
  key: string,
  type: string,
  from: FieldSourceSpec = { json: key },
  rules: string[] = [],
  defaultValue?: unknown,
): FieldPlan {
  const nullable = type.endsWith('?');
  const base = nullable ? type.slice(0, -1) : type;
  const array = base.endsWith('[]');
  const kind = (array ? base.slice(0, -2) : base) as ScalarKind;
  const fieldType = { kind, array, nullable };
  const parsed = rules.map((r) => {
    const p = parseRule(r, fieldType);
    if (!p.ok) throw new Error(`bad rule ${r}: ${p.message}`);
    return p.rule;
  });
  let source: FieldSource = 'body';
  let names: Partial<Pick<FieldPlan, 'json' | 'form' | 'name'>> = {};
  if ('json' in from) names = { json: from.json, form: from.form ?? from.json };
  else if ('form' in from) names = { form: from.form };
  else if ('query' in from) {
    source = 'query';
    names = { name: from.query };
  } else if ('path' in from) {
    source = 'path';
    names = { name: from.path };
  } else {
    source = 'header';
    names = { name: from.header.toLowerCase() };
  }
  return { key, type: fieldType, source, ...names, ...(defaultValue === undefined ? {} : { default: defaultValue }), rules: parsed };
}

/** The compiled validator of `fields`, or `null` when no field has a rule with a schema. */
export function compileValidator(fields: readonly FieldPlan[]): CompiledValidator | null {
  if (!fields.some((f) => f.rules.length > 0)) return null;
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const f of fields) {
    if (f.rules.length === 0) continue;
    properties[f.key] = { allOf: f.rules.map((r) => ruleSchema(r, f.type) ?? {}) };
    if (f.rules.some((r) => r.name === 'required')) required.push(f.key);
  }
  return ajv.compile({ type: 'object', properties, required }) as unknown as CompiledValidator;
}

/** Options of {@link route}. */
export interface RouteSpec {
  readonly name: string;
  readonly method?: HttpMethod;
  readonly path: string;
  readonly fields?: readonly FieldPlan[];
  readonly result?: ResultKind;
  readonly output?: OutputPlan | null;
  readonly middleware?: readonly string[];
  readonly group?: string | null;
}

/** A route definition with its validator compiled from its fields. */
export function route(spec: RouteSpec): RouteDefinition {
  const fields = spec.fields ?? [];
  return {
    name: spec.name,
    method: spec.method ?? 'GET',
    path: spec.path,
    group: spec.group ?? null,
    middleware: spec.middleware ?? [],
    result: spec.result ?? 'ok',
    fields,
    validate: compileValidator(fields),
    output: spec.output ?? null,
    origin: `test/${spec.name}.yaml:1:1`,
  };
}
