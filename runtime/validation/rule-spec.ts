/**
 * The shape of a rule of the catalog (docs/spec.md 4.5, binding step 4); the
 * catalog itself is `RULES` (rules.ts).
 */
import type { FieldTypePlan } from '../routing/route-table.js';

/** What a rule's size means for a value: characters, numeric value, item count or kilobytes. */
export type RuleCategory = 'string' | 'numeric' | 'array' | 'file' | 'boolean' | 'timestamp' | 'any';

/** Kinds of rule parameters. */
export type RuleParamKind = 'none' | 'number' | 'number2' | 'list' | 'regex' | 'rule' | 'field';

/** One rule of the catalog. */
export interface RuleSpec {
  readonly name: string;
  readonly params: RuleParamKind;
  /** Categories the rule applies to; applying it elsewhere is a schema error. */
  readonly appliesTo: readonly RuleCategory[];
  /**
   * JSON Schema fragment checked by ajv for a value of `type` (never null-guarded:
   * type-specific keywords pass other types). Absent for cross-field rules, which
   * the runtime checks with {@link RuleSpec.check} after ajv.
   */
  readonly schema?: (type: FieldTypePlan, params: readonly (string | number)[]) => Record<string, unknown>;
  /** Cross-field check: `value` of the field `key`, `input` the whole bound input. True when it passes. */
  readonly check?: (value: unknown, input: Record<string, unknown>, params: readonly (string | number)[], key: string) => boolean;
  /** Message templates by category (`*` for all); `:attribute` and `:<param>` placeholders. */
  readonly messages: Readonly<Partial<Record<RuleCategory | '*', string>>>;
  /** Names of the placeholders for the params, in order (e.g. `['min', 'max']`). */
  readonly placeholders?: readonly string[];
  /** Checks list parameters beyond their form (`dimensions:` keys): a message when they are wrong. */
  readonly checkParams?: (values: readonly string[]) => string | undefined;
}
