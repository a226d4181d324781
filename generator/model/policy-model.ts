/**
 * The model of authorization (docs/authorization.md): resolved policies and
 * a route's authorization, as `generator/model/policies.ts` and
 * `route-authorization.ts` make them and the emitters read them.
 */
import type { PolicyRule } from '../../runtime/routing/policy-plan.js';
import type { SourcePosition } from '../diagnostics.js';

/** A column's type as rules check it (a resource field's `ColumnType` has this shape). */
export interface PolicyColumnType {
  readonly kind: string;
  readonly array: boolean;
  readonly nullable: boolean;
  /** An enum's values. */
  readonly values?: readonly string[];
}

/** A column a policy's rules and targets may name. */
export interface PolicyColumn {
  readonly name: string;
  readonly type: PolicyColumnType;
  /** The primary key or a unique column: a route may find a row by it. */
  readonly unique: boolean;
}

/** One action of a policy. */
export interface PolicyAction {
  readonly name: string;
  /** The rule as the runtime takes it, or `code` (TypeScript, `definePolicy`). */
  readonly rule: PolicyRule | 'code';
  /** The rule can narrow a query: declarative rules always; `code` when the YAML says `scope: true`. */
  readonly scoped: boolean;
  /** The ability a bearer token needs. */
  readonly ability: string;
  readonly origin: SourcePosition;
}

/** A resolved policy. */
export interface Policy {
  readonly name: string;
  readonly description?: string;
  /** The resource governed, or null for a framework table. */
  readonly resource: string | null;
  readonly table: string;
  readonly label: string;
  readonly primaryKey: string;
  readonly softDelete: string | null;
  readonly hideExistence: boolean;
  readonly columns: ReadonlyMap<string, PolicyColumn>;
  /** The row type generated code names, and for a framework table the entry it comes from. */
  readonly rowType: { readonly name: string; readonly entry?: string; readonly database?: string };
  readonly actions: readonly PolicyAction[];
  readonly origin: SourcePosition;
}

/** A route's resolved authorization. */
export interface RouteAuthorize {
  readonly policy: string;
  readonly action: string;
  /** The row it acts on: the input field holding its key, the column compared, and whether soft-deleted rows count. */
  readonly target: { readonly field: string; readonly column: string; readonly withDeleted: boolean } | null;
  /** Implied by the route's kind (no `authorize:` in the YAML). */
  readonly inferred: boolean;
}
