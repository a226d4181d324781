/**
 * Error classes of the boot (codes in `runtime/errors/codes.ts`, causes and
 * fixes in `docs/errors.md`).
 */
import { codedErrorClass } from '../errors/coded-error.js';

/** The app definition or module is invalid (`BINDERY_APP_INVALID`). */
export const AppDefinitionError = codedErrorClass('AppDefinitionError', 'BINDERY_APP_INVALID');
/** An instance of {@link AppDefinitionError}. */
export type AppDefinitionError = InstanceType<typeof AppDefinitionError>;

/** A setup step is duplicated, out of order, or misused (`BINDERY_SETUP_INVALID`; docs/spec.md 7 rule 9). */
export const SetupError = codedErrorClass('SetupError', 'BINDERY_SETUP_INVALID');
/** An instance of {@link SetupError}. */
export type SetupError = InstanceType<typeof SetupError>;

/** The HTTP server could not listen (`BINDERY_LISTEN_FAILED`). */
export const ListenError = codedErrorClass('ListenError', 'BINDERY_LISTEN_FAILED');
/** An instance of {@link ListenError}. */
export type ListenError = InstanceType<typeof ListenError>;
