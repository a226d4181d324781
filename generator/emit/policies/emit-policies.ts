/**
 * `generated/policies.ts` (only when the schema has policies;
 * docs/authorization.md): `policies`, the table of every policy and its
 * actions' rules that `authorization({ policies })` takes, and the types
 * that make `definePolicy`, `ctx.can` and `ctx.scope` typed — the users'
 * row type, the database, each policy's row type, table and TypeScript
 * actions, each action's row type — by declaration merging into the
 * runtime's `PolicyTypes`.
 *
 * Written as text in one pass.
 */
import type { Policy } from '../../model/policy-model.js';
import { USERS_TABLE } from '../../model/policies.js';
import type { EmitContext } from '../context.js';
import type { GeneratedFile } from '../../write/generated-file.js';
import { printLiteral, type Literal } from '../ts-literal.js';
import { exportedConst, propertyName, quote } from '../ts-source.js';

/** Emit `policies.ts`, or nothing when the schema has no policy. */
export function emitPolicies(ctx: EmitContext): GeneratedFile | null {
  const policies = ctx.model.policies;
  if (policies.length === 0) return null;
  const users = ctx.model.resources.find((r) => r.table === USERS_TABLE);
  const ownTypes = new Set<string>(['Database']);
  if (users !== undefined) ownTypes.add(users.name);
  const entries = new Map<string, Set<string>>();
  for (const p of policies) {
    if (p.rowType.entry === undefined) ownTypes.add(p.rowType.name);
    else {
      const names = entries.get(p.rowType.entry) ?? new Set<string>();
      names.add(p.rowType.name);
      if (p.rowType.database !== undefined) names.add(p.rowType.database);
      entries.set(p.rowType.entry, names);
    }
  }
  const databases = ['Database', ...policies.flatMap((p) => (p.rowType.database !== undefined ? [p.rowType.database] : []))];
  const imports = [
    `import type { PolicyTable } from '${ctx.runtime}/authorization';`,
    ...[...entries]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([entry, names]) => `import type { ${[...names].sort().join(', ')} } from '${ctx.runtime}/${entry}';`),
    `import type { ${[...ownTypes].sort().join(', ')} } from './types.js';`,
  ];
  const actionNames = policies.flatMap((p) => p.actions.map((a) => `${p.name}.${a.name}`));
  const text = [
    `// ${ctx.header}
/**
 * The policies of the schema (docs/authorization.md): give them to
 * \`authorization({ policies, definitions })\` in app/main.ts; the actions
 * marked \`code\` are written with \`definePolicy\`.
 */
${imports.join('\n')}`,
    exportedConst(
      'Every policy, by name: the table it governs and the rule and token ability of each action.',
      'policies',
      `${printLiteral(Object.fromEntries(policies.map((p) => [p.name, policyLiteral(p)])))} as const satisfies PolicyTable`,
    ),
    `/** The name of a policy action, as routes, \`ctx.can\` and \`it.can\` name it. */\nexport type PolicyActionName = ${actionNames.map(quote).join(' | ')};`,
    `declare module '${ctx.runtime}/authorization' {
  interface PolicyTypes {
${users !== undefined ? `    /** The signed-in user (the ${users.name} row). */\n    user: ${users.name};\n` : ''}    database: ${databases.join(' & ')};
    policies: {
${policies.map((p) => `      ${propertyName(p.name)}: { row: ${p.rowType.name}; table: ${quote(p.table)}; code: ${codeActions(p)} };`).join('\n')}
    };
    actions: {
${policies.flatMap((p) => p.actions.map((a) => `      ${quote(`${p.name}.${a.name}`)}: ${p.rowType.name};`)).join('\n')}
    };
  }
}`,
  ].join('\n\n');
  return { path: 'policies.ts', content: `${text}\n` };
}

function codeActions(policy: Policy): string {
  const code = policy.actions.filter((a) => a.rule === 'code').map((a) => quote(a.name));
  return code.length === 0 ? 'never' : code.join(' | ');
}

function policyLiteral(policy: Policy): Literal {
  return {
    label: policy.label,
    table: policy.table,
    primaryKey: policy.primaryKey,
    softDelete: policy.softDelete,
    hideExistence: policy.hideExistence,
    actions: Object.fromEntries(
      policy.actions.map((a) => [a.name, { rule: a.rule as unknown as Literal, scoped: a.scoped, ability: a.ability }]),
    ),
  };
}
