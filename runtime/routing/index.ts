/**
 * The route table's types (docs/generator.md): what `generated/routes.ts`
 * and `generated/validators.ts` are typed by, and `UploadedFile`, the value a
 * `file` input field binds to; `runList` and `runOffsetList`, the page of a
 * list route (`generated/lists.ts` calls them; docs/schema-language.md "List
 * routes"); and `loadRelations`, the batch loader `generated/relations.ts`
 * calls (docs/schema-language.md "Included paths and batch loading").
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
export { runOffsetList, type OffsetPage } from '../results/list/run-offset-list.js';
export { loadRelations, type Loaded, type LoadContext, type RelationGraph } from '../results/list/load-relations.js';
