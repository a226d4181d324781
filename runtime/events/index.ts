/**
 * Events and listeners (docs/jobs.md "Events"): typed,
 * namespaced events, listeners run in process or as jobs.
 */
export {
  defineEvent,
  defineListener,
  type EventDefinition,
  type EventName,
  type EventSpec,
  type Listener,
  type ListenerContext,
  type ListenerSpec,
} from './define-event.js';
export { EventBus, type EmitOptions, type EmitResult } from './event-bus.js';
export { emitEvent, events, type EventsOptions } from './events-step.js';
// `EventPayloads` comes through `export type *`, not a named re-export: an
// app's `declare module 'bindery/events' { interface EventPayloads { … } }`
// then merges into the interface itself, also from an installed package's
// .d.ts files (docs/package.md).
export type * from './define-event.js';
