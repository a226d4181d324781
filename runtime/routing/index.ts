/**
 * The route table's types (docs/generator.md): what `generated/routes.ts`
 * and `generated/validators.ts` are typed by, and `UploadedFile`, the value a
 * `file` input field binds to. The list runners and the relation loader the
 * generated code calls are in `bindery/results`.
 */
export type {
  HttpMethod,
  ScalarKind,
  FieldTypePlan,
  FieldSource,
  RuleRef,
  FieldPlan,
  CompiledValidator,
  OutputPlan,
  RouteDefinition,
  RateLimitPlan,
  CorsPlan,
  RouteTable,
  UploadedFile,
  ListPlan,
  ListSortPlan,
  ListFilterOp,
  ListFilterPlan,
  IncludePlan,
} from './route-table.js';
export type {
  AuthorizePlan,
  AuthorizeTargetPlan,
  ColumnConditions,
  PolicyActionPlan,
  PolicyConditions,
  PolicyPlan,
  PolicyRule,
  PolicyTable,
  PolicyValue,
} from './policy-plan.js';
