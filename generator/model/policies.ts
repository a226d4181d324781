/**
 * Resolving policies (`policies.<name>`; docs/authorization.md): the rows
 * they govern (a resource, or a table of the framework), their actions'
 * rules checked column by column, the token ability of each action — and
 * the checks across policies.
 */
import type { RawPolicy, RawPolicyRule, RawPolicyValue } from '../language/raw.js';
import type { DataPath } from '../load/node-position.js';
import type { ColumnConditions, PolicyRule, PolicyValue } from '../../runtime/routing/policy-plan.js';
import { didYouMean } from '../suggest.js';
import type { Resource } from './model.js';
import type { Policy, PolicyAction, PolicyColumn, PolicyColumnType } from './policy-model.js';
import { FRAMEWORK_TABLES } from './policy-tables.js';
import { formatPosition, type Reporter } from './reporter.js';

/** A resolved policy with the reporter of its file. */
export interface DeclaredPolicy {
  readonly policy: Policy;
  readonly r: Reporter;
}

/** What a policy can refer to. */
export interface PolicyScope {
  readonly resources: ReadonlyMap<string, Resource>;
  /** The resource of the signed-in users (the one whose table is `users`), for `user:` conditions. */
  readonly users: Resource | undefined;
}

/** The table of the resource whose rows are the signed-in users. */
export const USERS_TABLE = 'users';

/**
 * Resolve policy `name` at `policies.<name>`. Errors go to `r`; undefined when it has one.
 */
export function resolvePolicy(r: Reporter, name: string, raw: RawPolicy, scope: PolicyScope): Policy | undefined {
  const path: DataPath = ['policies', name];
  const subject = resolveSubject(r, path, name, raw, scope);
  if (subject === undefined) return undefined;
  let ok = true;
  const abilityOf = new Map<string, string>();
  for (const [ability, actions] of Object.entries(raw.abilities ?? {})) {
    actions.forEach((action, i) => {
      const other = abilityOf.get(action);
      if (!Object.hasOwn(raw.actions, action)) {
        ok = false;
        r.error(
          [...path, 'abilities', ability, i],
          `unknown action "${action}"${didYouMean(action, Object.keys(raw.actions))}; the policy's actions: ${Object.keys(raw.actions).join(', ')}`,
          'value',
        );
      } else if (other !== undefined) {
        ok = false;
        r.error(
          [...path, 'abilities', ability, i],
          `action "${action}" is already granted by the ability "${other}"; list each action once`,
          'value',
        );
      } else {
        abilityOf.set(action, ability);
      }
    });
  }
  const subjectResource = subject.resource !== null ? scope.resources.get(subject.resource) : undefined;
  const checker = new RuleChecker(r, subject.columns, scope.users, subject.label, [subjectResource, scope.users]);
  const actions: PolicyAction[] = [];
  for (const [action, rawRule] of Object.entries(raw.actions)) {
    const at: DataPath = [...path, 'actions', action];
    const resolved = checker.action(at, rawRule);
    if (resolved === undefined) {
      ok = false;
      continue;
    }
    actions.push({ name: action, ...resolved, ability: abilityOf.get(action) ?? `${name}:${action}`, origin: r.at(at) });
  }
  if (!ok) return undefined;
  return {
    name,
    ...(raw.description !== undefined ? { description: raw.description } : {}),
    ...subject,
    hideExistence: raw.hideExistence ?? false,
    actions,
    origin: r.at(path),
  };
}

type Subject = Pick<Policy, 'resource' | 'table' | 'label' | 'primaryKey' | 'softDelete' | 'columns' | 'rowType'>;

/** The rows a policy governs: `resource:`, `table:`, or the resource whose table is its name. */
function resolveSubject(r: Reporter, path: DataPath, name: string, raw: RawPolicy, scope: PolicyScope): Subject | undefined {
  if (raw.resource !== undefined && raw.table !== undefined) {
    r.error([...path, 'table'], 'give "resource" (a resource of the schema) or "table" (a table of the framework), not both');
    return undefined;
  }
  const resources = [...scope.resources.values()];
  if (raw.table !== undefined || (raw.resource === undefined && !resources.some((x) => x.table === name))) {
    const table = raw.table ?? name;
    const framework = Object.hasOwn(FRAMEWORK_TABLES, table) ? FRAMEWORK_TABLES[table] : undefined;
    if (framework === undefined) {
      const where = raw.table !== undefined ? ([...path, 'table'] as DataPath) : path;
      const candidates = [...resources.map((x) => x.table), ...Object.keys(FRAMEWORK_TABLES)];
      r.error(
        where,
        `unknown resource: no resource has the table "${table}"${didYouMean(table, candidates)}, and it is not a table of the framework (${Object.keys(FRAMEWORK_TABLES).join(', ')}); name the resource with "resource:" or the framework table with "table:"`,
        raw.table !== undefined ? 'value' : 'key',
      );
      return undefined;
    }
    const columns = new Map<string, PolicyColumn>(
      Object.entries(framework.columns).map(([column, kind]) => [
        column,
        { name: column, type: { kind, array: false, nullable: false }, unique: framework.unique.includes(column) },
      ]),
    );
    return {
      resource: null,
      table,
      label: framework.label,
      primaryKey: framework.primaryKey,
      softDelete: null,
      columns,
      rowType: { name: framework.types.row, entry: framework.types.entry, database: framework.types.database },
    };
  }
  const resource = raw.resource !== undefined ? scope.resources.get(raw.resource) : resources.find((x) => x.table === name);
  if (resource === undefined) {
    r.error(
      [...path, 'resource'],
      `unknown resource "${raw.resource}"${didYouMean(raw.resource!, scope.resources.keys())}; declare it under "resources:"`,
      'value',
    );
    return undefined;
  }
  if (resource.primaryKey === null) {
    r.error(path, `resource ${resource.name} has no primary key, so a route cannot name one of its rows; give it one`);
    return undefined;
  }
  const unique = new Set([
    resource.primaryKey,
    ...resource.indexes.filter((i) => i.unique && i.columns.length === 1).map((i) => i.columns[0]!),
  ]);
  return {
    resource: resource.name,
    table: resource.table,
    label: resource.name,
    primaryKey: resource.primaryKey,
    softDelete: resource.softDelete ? 'deleted_at' : null,
    columns: new Map(resource.fields.map((f) => [f.name, { name: f.name, type: f.type, unique: unique.has(f.name) }])),
    rowType: { name: resource.name },
  };
}

/** Kinds of columns a rule may compare (not lists, JSON, timestamps or durations). */
const COMPARABLE = new Set(['string', 'text', 'uuid', 'integer', 'bigint', 'number', 'boolean']);
/** Kinds of columns that can hold a user's authentication ID. */
const ID_KINDS = new Set(['string', 'text', 'uuid', 'integer', 'bigint']);

/** Checks the rules of one policy against its columns and the users resource. */
class RuleChecker {
  constructor(
    private readonly r: Reporter,
    private readonly columns: ReadonlyMap<string, PolicyColumn>,
    private readonly users: Resource | undefined,
    private readonly label: string,
    /** The policy's resource and the users resource: their relations and computed fields are named in the error when a rule uses one. */
    private readonly virtualOwners: readonly (Resource | undefined)[] = [],
  ) {}

  /** One action's rule, or undefined on an error. */
  action(at: DataPath, raw: RawPolicyRule): Pick<PolicyAction, 'rule' | 'scoped'> | undefined {
    if (raw === 'code') return { rule: 'code', scoped: false };
    if (typeof raw === 'object' && raw.code === true) {
      const other = Object.keys(raw).filter((k) => k !== 'code' && k !== 'scope');
      if (other.length > 0) {
        this.r.error([...at, other[0]!], `a code rule is written in TypeScript whole; move "${other[0]}" into the definePolicy function`);
        return undefined;
      }
      return { rule: 'code', scoped: raw.scope === true };
    }
    const rule = this.rule(at, raw);
    return rule === undefined ? undefined : { rule, scoped: true };
  }

  rule(at: DataPath, raw: RawPolicyRule): PolicyRule | undefined {
    if (typeof raw === 'string') {
      if (raw === 'code') {
        this.r.error(at, '"code" stands for a whole action; it cannot be one of anyOf\'s rules', 'value');
        return undefined;
      }
      return raw;
    }
    if (raw.code !== undefined || raw.scope !== undefined) {
      this.r.error(
        [...at, raw.code !== undefined ? 'code' : 'scope'],
        '"code" and "scope" stand for a whole action; they cannot be inside anyOf, nor "scope" without "code: true"',
      );
      return undefined;
    }
    let ok = true;
    const out: { owner?: string; user?: ColumnConditions; row?: ColumnConditions; anyOf?: PolicyRule[] } = {};
    if (raw.owner !== undefined) {
      const column = this.columns.get(raw.owner);
      if (column === undefined) ok = this.unknownColumn([...at, 'owner'], raw.owner, this.columns, this.label);
      else if (!ID_KINDS.has(column.type.kind) || column.type.array) {
        ok = false;
        this.r.error(
          [...at, 'owner'],
          `"${raw.owner}" is a ${column.type.kind}${column.type.array ? ' list' : ''} column; an owner column holds a user ID (integer, bigint, string, text or uuid)`,
          'value',
        );
      } else out.owner = raw.owner;
    }
    if (raw.user !== undefined) {
      if (this.users === undefined) {
        ok = false;
        this.r.error(
          [...at, 'user'],
          `"user:" conditions read the signed-in user's row, but no resource has the table "${USERS_TABLE}"; declare the users resource`,
        );
      } else {
        const users = new Map(this.users.fields.map((f) => [f.name, { name: f.name, type: f.type, unique: false }]));
        const user = this.conditions([...at, 'user'], raw.user, users, `the users resource (${this.users.name})`);
        if (user === undefined) ok = false;
        else out.user = user;
      }
    }
    if (raw.row !== undefined) {
      const row = this.conditions([...at, 'row'], raw.row, this.columns, this.label);
      if (row === undefined) ok = false;
      else out.row = row;
    }
    if (raw.anyOf !== undefined) {
      const rules = raw.anyOf.map((nested, i) => this.rule([...at, 'anyOf', i], nested));
      if (rules.some((x) => x === undefined)) ok = false;
      else out.anyOf = rules as PolicyRule[];
    }
    return ok ? out : undefined;
  }

  conditions(
    at: DataPath,
    raw: Readonly<Record<string, RawPolicyValue>>,
    columns: ReadonlyMap<string, PolicyColumn>,
    owner: string,
  ): ColumnConditions | undefined {
    let ok = true;
    const out: Record<string, PolicyValue | readonly PolicyValue[]> = {};
    for (const [name, value] of Object.entries(raw)) {
      const column = columns.get(name);
      if (column === undefined) {
        ok = this.unknownColumn([...at, name], name, columns, owner, 'key');
        continue;
      }
      if (!COMPARABLE.has(column.type.kind) || column.type.array) {
        ok = false;
        this.r.error(
          [...at, name],
          `"${name}" is a ${column.type.kind}${column.type.array ? ' list' : ''} column; conditions compare text, number, boolean and enum columns`,
        );
        continue;
      }
      const values = Array.isArray(value) ? value : [value];
      values.forEach((v, i) => {
        const problem = valueProblem(column.type, v);
        if (problem !== undefined) {
          ok = false;
          this.r.error(Array.isArray(value) ? [...at, name, i] : [...at, name], `${JSON.stringify(v)} ${problem}`, 'value');
        }
      });
      out[name] = Array.isArray(value) ? [...value] : (value as PolicyValue);
    }
    return ok ? out : undefined;
  }

  unknownColumn(
    at: DataPath,
    name: string,
    columns: ReadonlyMap<string, PolicyColumn>,
    owner: string,
    where: 'key' | 'value' = 'value',
  ): false {
    for (const resource of this.virtualOwners) {
      const computed = resource?.computed?.find((c) => c.name === name);
      const relation = resource?.relations?.find((x) => x.name === name);
      if (computed === undefined && relation === undefined) continue;
      this.r.error(
        at,
        `"${name}" is a ${computed ? 'computed field' : 'relation'} of ${resource!.name}, not a column; a policy compares the row's own columns (${[...columns.keys()].join(', ')}) — decide on ${computed ? 'a computed field' : 'a relation'} in a code rule (docs/authorization.md)`,
        where,
      );
      return false;
    }
    this.r.error(
      at,
      `unknown column "${name}" of ${owner}${didYouMean(name, columns.keys())}; its columns: ${[...columns.keys()].join(', ')}`,
      where,
    );
    return false;
  }
}

/** Why `value` cannot be a value of a column of `type`, or undefined when it can. */
function valueProblem(type: PolicyColumnType, value: string | number | boolean | null): string | undefined {
  if (value === null) return type.nullable ? undefined : 'is not a value of this column: it is not nullable';
  if (type.kind === 'boolean') return typeof value === 'boolean' ? undefined : 'is not a boolean; write true or false';
  if (type.kind === 'integer' || type.kind === 'bigint')
    return Number.isSafeInteger(value) ? undefined : `is not a whole number; the column is ${type.kind}`;
  if (type.kind === 'number') return typeof value === 'number' ? undefined : 'is not a number';
  if (typeof value !== 'string') return `is not text; the column is ${type.values ? 'an enum' : type.kind} (quote it)`;
  if (type.values !== undefined && !type.values.includes(value)) return `is not one of the column's values: ${type.values.join(', ')}`;
  return undefined;
}

/**
 * Checks across policies: one policy per table (lists, included relations
 * and bulk writes find a table's policy by its table).
 */
export function checkPolicies(declared: readonly DeclaredPolicy[]): void {
  const byTable = new Map<string, Policy>();
  for (const { policy, r } of declared) {
    const first = byTable.get(policy.table);
    if (first !== undefined) {
      r.error(
        ['policies', policy.name],
        `the table ${policy.table} is already governed by the policy "${first.name}" at ${formatPosition(first.origin)}; give each table one policy`,
      );
    } else byTable.set(policy.table, policy);
  }
}
