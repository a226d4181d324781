/**
 * Error classes of plugins (codes in `runtime/errors/codes.ts`, causes and
 * fixes in `docs/errors.md`; SPEC 7 rule 9, SPEC 9).
 */
import { CodedError } from '../support/coded-error.js';

/** A plugin manifest breaks a rule of SPEC 9 (`BINDERY_PLUGIN_INVALID`). */
export class PluginError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BINDERY_PLUGIN_INVALID', message, options);
  }
}

/** A plugin uses a name reserved for the framework (`BINDERY_PLUGIN_NAME_RESERVED`). */
export class PluginNameReservedError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BINDERY_PLUGIN_NAME_RESERVED', message, options);
  }
}

/** Two plugins have the same name (`BINDERY_PLUGIN_NAME_TAKEN`). */
export class PluginNameTakenError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BINDERY_PLUGIN_NAME_TAKEN', message, options);
  }
}

/** A plugin does not support this framework version (`BINDERY_PLUGIN_VERSION_MISMATCH`). */
export class PluginVersionError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BINDERY_PLUGIN_VERSION_MISMATCH', message, options);
  }
}

/** A plugin needs a service whose setup step is missing (`BINDERY_PLUGIN_NEEDS_SETUP`). */
export class PluginNeedsSetupError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BINDERY_PLUGIN_NEEDS_SETUP', message, options);
  }
}

/** No such plugin in the list, or no such package (`BINDERY_PLUGIN_NOT_FOUND`). */
export class PluginNotFoundError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BINDERY_PLUGIN_NOT_FOUND', message, options);
  }
}

/** `bindery add` / `remove` failed at a step; files were restored (`BINDERY_PLUGIN_LIFECYCLE_FAILED`). */
export class PluginLifecycleError extends CodedError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('BINDERY_PLUGIN_LIFECYCLE_FAILED', message, options);
  }
}
