/**
 * Error class of events and listeners (code in `runtime/errors/codes.ts`, cause and fix in `docs/errors.md`).
 */
import { codedErrorClass } from '../errors/coded-error.js';

/** An event or listener is invalid, listed twice, or its payload was refused (`BINDERY_EVENT_INVALID`). */
export const EventError = codedErrorClass('EventError', 'BINDERY_EVENT_INVALID');
/** An instance of {@link EventError}. */
export type EventError = InstanceType<typeof EventError>;
