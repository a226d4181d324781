/**
 * `generated/factories.ts` (docs/database.md "Factories"): per resource the
 * plan of its factory — the columns a new row needs, with the constraints the
 * schema puts on them (type, `max`, enum values, unique, references, and the
 * rules of route inputs of the same name: `email`, `url`, `min:`, `in:`, …) —
 * the typed `Factories` interface, and `createFactories(db)` for seeds and
 * tests. Not emitted when the schema has no resources.
 */
import { type StatementStructures, StructureKind } from '../ts-structures.js';
import type { RuleRef } from '../../../runtime/routing/route-table.js';
import type { FactoryFieldPlan, FactoryPlan } from '../../../runtime/db/factories.js';
import type { Model, Resource, ResourceField } from '../../model/model.js';
import { resourceTypeNames } from '../../model/names.js';
import type { EmitContext } from '../context.js';
import type { GeneratedFile } from '../../write/generated-file.js';
import { printLiteral, type Literal } from '../ts-literal.js';
import { createTsPrinter, exportedConst, propertyName } from '../ts-source.js';

/** Emit `factories.ts` (see the module comment), or null when there are no resources. */
export function emitFactories(ctx: EmitContext): GeneratedFile | null {
  const resources = ctx.model.resources;
  if (resources.length === 0) return null;
  const printer = createTsPrinter();
  const names = resources.map((r) => resourceTypeNames(r.name));
  const statements: (string | StatementStructures)[] = [
    { kind: StructureKind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: 'kysely', namedImports: ['Kysely'] },
    {
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: `${ctx.runtime}/db`,
      namedImports: ['createFactories as factoriesOf', 'type Factory', 'type FactoryPlan'],
    },
    {
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: './types.js',
      namedImports: ['Database', ...names.flatMap((n) => [n.row, n.insert])].sort(),
    },
  ];
  const plans = Object.fromEntries(resources.map((r) => [r.name, planOf(r, ctx.model) as unknown as Literal]));
  statements.push(
    exportedConst(
      "What each resource's factory fills in: the columns a new row needs a value for, and the constraints on them.",
      'factoryPlans',
      `${printLiteral(plans)} as const satisfies Readonly<Record<string, FactoryPlan>>`,
    ),
  );
  statements.push({
    kind: StructureKind.Interface,
    name: 'Factories',
    isExported: true,
    docs: ['The factory of each resource: `build`, `create`, `createMany` (docs/database.md "Factories").'],
    properties: resources.map((r, i) => ({
      name: propertyName(r.name),
      isReadonly: true,
      type: `Factory<${names[i]!.insert}, ${names[i]!.row}>`,
      docs: [`Rows of \`${r.table}\`.`],
    })),
  });
  statements.push({
    kind: StructureKind.Function,
    name: 'createFactories',
    isExported: true,
    docs: ["The factories writing through `db` (the app's Kysely, or a transaction of it)."],
    parameters: [{ name: 'db', type: 'Kysely<Database>' }],
    returnType: 'Factories',
    statements: ['return factoriesOf(db, factoryPlans) as unknown as Factories;'],
  });
  return printer.file('factories.ts', statements, ctx.header);
}

function planOf(resource: Resource, model: Model): FactoryPlan {
  const fields: Record<string, FactoryFieldPlan> = {};
  for (const f of resource.fields) {
    if (f.type.nullable || f.default !== undefined || f.identity) continue;
    fields[f.name] = fieldPlan(resource, f, model);
  }
  return { table: resource.table, fields };
}

function fieldPlan(resource: Resource, f: ResourceField, model: Model): FactoryFieldPlan {
  const k = f.type.kind;
  const kind: FactoryFieldPlan['kind'] = k === 'text' ? 'string' : k === 'bigint' ? 'integer' : k;
  const rules = k === 'string' || k === 'text' ? inputRules(model, f.name) : [];
  const values = f.type.values ?? ruleParams(rules, 'in')[0]?.map(String);
  const maxima = [
    f.type.max,
    ...ruleParams(rules, 'max').map((p) => Number(p[0])),
    ...ruleParams(rules, 'between').map((p) => Number(p[1])),
  ].filter((n): n is number => n !== undefined);
  const minima = [...ruleParams(rules, 'min').map((p) => Number(p[0])), ...ruleParams(rules, 'between').map((p) => Number(p[0]))];
  const format = (['email', 'url', 'alpha', 'alpha_num'] as const).find((name) => rules.some((r) => r.name === name));
  const prefix = ruleParams(rules, 'starts_with')[0]?.[0];
  const unique = resource.indexes.some((i) => i.unique && i.columns.length === 1 && i.columns[0] === f.name);
  const target = f.references ? model.resources.find((r) => r.table === f.references!.table) : undefined;
  return {
    kind,
    ...(f.type.array ? { array: true } : {}),
    ...(values ? { values } : {}),
    ...(minima.length > 0 ? { minLength: Math.max(...minima) } : {}),
    ...(maxima.length > 0 ? { maxLength: Math.min(...maxima) } : {}),
    ...(format ? { format } : {}),
    ...(prefix !== undefined ? { prefix: String(prefix) } : {}),
    ...(unique ? { unique: true } : {}),
    ...(f.references ? { references: { resource: target?.name ?? f.references.table, column: f.references.column } } : {}),
  };
}

/** The rules of every route input named `name` (a column's rules live on the inputs that write it), in route and input order. */
function inputRules(model: Model, name: string): readonly RuleRef[] {
  let byName = rulesByInput.get(model);
  if (byName === undefined) {
    // One pass over the routes per model, not one per column (linear in the schema's size).
    byName = new Map();
    for (const route of model.routes)
      for (const input of route.input) {
        if (input.type.array) continue;
        const rules = byName.get(input.key);
        if (rules) rules.push(...input.rules);
        else byName.set(input.key, [...input.rules]);
      }
    rulesByInput.set(model, byName);
  }
  return byName.get(name) ?? [];
}

const rulesByInput = new WeakMap<Model, Map<string, RuleRef[]>>();

function ruleParams(rules: readonly RuleRef[], name: string): (readonly (string | number)[])[] {
  return rules.filter((r) => r.name === name).map((r) => r.params);
}
