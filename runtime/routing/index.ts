/**
 * The route table's types (docs/generator.md): what `generated/routes.ts`
 * and `generated/validators.ts` are typed by, and `UploadedFile`, the value a
 * `file` input field binds to.
 */
export type {
  HttpMethod, ScalarKind, FieldTypePlan, FieldSource, RuleRef, FieldPlan, CompiledValidator, OutputPlan,
  RouteDefinition, RateLimitPlan, CorsPlan, RouteTable, UploadedFile,
} from './route-table.js';
