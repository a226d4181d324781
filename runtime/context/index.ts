/**
 * The execution context (docs/audit.md): who is acting and through what
 * (`Actor`, `Via`), carried across awaits; `withActor` runs code as another
 * actor, `currentContext` reads it.
 */
export * from './execution-context.js';
