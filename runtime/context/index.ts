/**
 * The execution context (docs/audit.md): who is acting and through what
 * (`Actor`, `Via`), carried across awaits; `withActor` runs code as another
 * actor, `currentContext` reads it.
 */
export {
  currentContext,
  runInContext,
  withActor,
  SYSTEM_ACTOR,
  type Actor,
  type ExecutionContext,
  type Via,
} from './execution-context.js';
