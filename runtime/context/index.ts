/**
 * The execution context (docs/audit.md): who is acting and through what
 * (`Actor`, `Via`), carried across awaits; `withActor` runs code as another
 * actor, `withVia` through another via, `currentContext` reads it.
 */
export {
  currentContext,
  runInContext,
  withActor,
  withVia,
  SYSTEM_ACTOR,
  type Actor,
  type ExecutionContext,
  type Via,
} from './execution-context.js';
