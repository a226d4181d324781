/**
 * Events and listeners (docs/jobs.md "Events"): typed,
 * namespaced events, listeners run in process or as jobs.
 */
export {
  defineEvent,
  defineListener,
  isEventDefinition,
  isListener,
  type EventDefinition,
  type EventName,
  type EventSpec,
  type Listener,
  type ListenerContext,
  type ListenerSpec,
} from './define-event.js';
export { EventBus, type EmitOptions, type EmitResult } from './event-bus.js';
export { emitEvent, eventBusOf, events, type EventsOptions } from './events-step.js';
export { EventError } from './errors.js';
export { tapEvents, type EventTap } from './event-taps.js';
// `EventPayloads` comes through `export type *`, not a named re-export: an
// app's `declare module 'bindery/events' { interface EventPayloads { … } }`
// then merges into the interface itself, also from an installed package's
// .d.ts files (docs/package.md).
export type * from './define-event.js';
