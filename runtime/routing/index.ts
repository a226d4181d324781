/**
 * The route table's types (docs/generator.md): what `generated/routes.ts`
 * and `generated/validators.ts` are typed by, and `UploadedFile`, the value a
 * `file` input field binds to; and `runList`, the page of a list route
 * (`generated/lists.ts` calls it; docs/schema-language.md "List routes").
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
export { runList, type ListPage, type ListContext, type ListScope } from '../results/list/run-list.js';
