/**
 * `generated/relations.ts` (only when a resource declares `relations:` or
 * `computed:`): `load.<Resource>(ctx, rows, paths)`, the typed loader of
 * included paths a handler calls (docs/schema-language.md "Included paths
 * and batch loading"), over the schema's relation graph.
 *
 * Written as text in one pass.
 */
import type { Model, Resource } from '../../model/model.js';
import { serializerName } from '../../model/names.js';
import { policyByResource } from '../policies/route-policies.js';
import type { EmitContext } from '../context.js';
import type { GeneratedFile } from '../../write/generated-file.js';
import { quote } from '../ts-source.js';
import { printLiteral, Code, type Literal } from '../ts-literal.js';

/** Paths are enumerated to this depth (`author.following`). */
const DEPTH = 2;

/** One include step of a resource: the member, the runtime literal, the type member, the related resource (relations only). */
interface Step {
  readonly name: string;
  readonly literal: Literal;
  readonly type: string;
  readonly resource?: string;
}

/** Emit `relations.ts`, or nothing when no resource declares relations or computed fields. */
export function emitRelations(ctx: EmitContext): GeneratedFile | null {
  const model = ctx.model;
  if (!model.resources.some((r) => (r.relations?.length ?? 0) > 0 || (r.computed?.length ?? 0) > 0)) return null;
  const steps = new Map(model.resources.map((r) => [r.name, stepsOf(r, model)]));
  const loadable = model.resources.filter((r) => steps.get(r.name)!.length > 0);
  const types = new Set<string>();
  const serializers = new Set<string>();
  for (const r of loadable) {
    types.add(r.name);
    for (const s of steps.get(r.name)!)
      if (s.resource !== undefined) {
        types.add(s.resource);
        serializers.add(serializerName(s.resource));
      }
  }
  const relationTypes = model.resources
    .filter((r) => types.has(r.name))
    .map((r) => {
      const members = steps.get(r.name)!.map((s) => `  ${s.name}: ${s.type};`);
      return `/** What rows of ${r.name} can include: related rows (\`one\`, \`many\`, with their own relations \`of\`) and computed values. */
export interface ${r.name}Relations {${members.length > 0 ? `\n${members.join('\n')}\n` : ''}}`;
    });
  const pathTypes = loadable.map((r) => {
    const paths = pathsOf(r.name, steps, DEPTH);
    return `/** The include paths of ${r.name} rows. */
export type ${r.name}Path = ${paths.map(quote).join(' | ')};`;
  });
  const graph = Object.fromEntries(
    model.resources
      .filter((r) => types.has(r.name))
      .map((r) => [r.name, Object.fromEntries(steps.get(r.name)!.map((s) => [s.name, s.literal]))]),
  );
  const loaders = loadable.map(
    (r) => `  /** ${r.name} rows with the members of \`paths\` (one statement per relation and per join of computed fields). */
  ${r.name}: <P extends ${r.name}Path>(ctx: LoadContext, rows: readonly ${r.name}[], paths: readonly P[]): Promise<Loaded<${r.name}, ${r.name}Relations, P>[]> =>
    loadRelations(ctx, graph, ${quote(r.name)}, rows, paths) as Promise<Loaded<${r.name}, ${r.name}Relations, P>[]>,`,
  );
  const text = `// ${ctx.header}
/**
 * The loaders of included paths: \`load.<Resource>(ctx, rows, paths)\` adds
 * the related rows and computed fields named by \`paths\` to rows a handler
 * read, in batch. See docs/schema-language.md "Included paths and batch loading".
 */
import { loadRelations, type Loaded, type LoadContext, type RelationGraph } from '${ctx.runtime}/results';
${serializers.size > 0 ? `import { ${[...serializers].sort().join(', ')} } from './serializers.js';\n` : ''}import type { ${[...types].sort().join(', ')} } from './types.js';

${relationTypes.join('\n\n')}

${pathTypes.join('\n\n')}

/** The relation graph: resource → member → how it is read. */
const graph: RelationGraph = ${printLiteral(graph as Literal)};

/** One loader per resource with relations, by resource name. */
export const load = {
${loaders.join('\n')}
};
`;
  return { path: 'relations.ts', content: text };
}

/** The include steps of rows of `resource`: belongs-to relations to resources, many-to-many relations, computed fields. */
function stepsOf(resource: Resource, model: Model): Step[] {
  const policies = policyByResource(model);
  const byTable = new Map(model.resources.map((r) => [r.table, r]));
  const policy = (name: string): { policy?: string } => (policies.has(name) ? { policy: policies.get(name)! } : {});
  const steps: Step[] = [];
  for (const f of resource.fields) {
    const target = f.references ? byTable.get(f.references.table) : undefined;
    if (!target || !f.name.endsWith('_id') || resource.fields.some((x) => !x.hidden && x.json === f.name.slice(0, -3))) continue;
    steps.push({
      name: f.name.slice(0, -3),
      resource: target.name,
      type: `{ one: ${target.name}; of: ${target.name}Relations }`,
      literal: {
        name: f.name.slice(0, -3),
        column: f.name,
        table: target.table,
        key: f.references!.column,
        resource: target.name,
        serialize: new Code(serializerName(target.name)),
        ...policy(target.name),
      },
    });
  }
  for (const rel of resource.relations ?? []) {
    steps.push({
      name: rel.name,
      resource: rel.resource,
      type: `{ many: ${rel.resource}; of: ${rel.resource}Relations }`,
      literal: {
        name: rel.name,
        kind: 'many',
        column: rel.ownerKey,
        table: rel.table,
        key: rel.key,
        through: { table: rel.joinTable, from: rel.from, to: rel.to },
        resource: rel.resource,
        serialize: new Code(serializerName(rel.resource)),
        ...policy(rel.resource),
      },
    });
  }
  for (const c of resource.computed ?? []) {
    const rel = resource.relations!.find((x) => x.name === c.relation)!;
    steps.push({
      name: c.name,
      type: `{ value: ${c.kind === 'count' ? 'number' : 'boolean'} }`,
      literal: {
        name: c.name,
        kind: c.kind,
        column: rel.ownerKey,
        table: rel.table,
        key: rel.key,
        through: { table: rel.joinTable, from: rel.from, to: rel.to },
      },
    });
  }
  return steps;
}

/** Every path of `resource` up to `depth` names, in step order. */
function pathsOf(resource: string, steps: ReadonlyMap<string, readonly Step[]>, depth: number): string[] {
  const out: string[] = [];
  for (const s of steps.get(resource) ?? []) {
    out.push(s.name);
    if (depth > 1 && s.resource !== undefined) for (const p of pathsOf(s.resource, steps, depth - 1)) out.push(`${s.name}.${p}`);
  }
  return out;
}
