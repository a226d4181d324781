/**
 * Validation (docs/spec.md 4.5, binding step 4): the rule catalog shared with the
 * generator, and the runtime's check of a bound input.
 */
export { RULES, ruleSchema, ruleMessage, categoryOf, type RuleSpec, type RuleCategory, type RuleParamKind } from './rules.js';
export { parseRule, type ParsedRule } from './rule-parser.js';
export { compileInputValidator, type InputValidator } from './input-validator.js';
