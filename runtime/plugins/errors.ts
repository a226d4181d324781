/**
 * Error classes of plugins (codes in `runtime/errors/codes.ts`, causes and
 * fixes in `docs/errors.md`; docs/spec.md 7 rule 9, docs/spec.md 9).
 */
import { codedErrorClass } from '../errors/coded-error.js';

/** A plugin manifest breaks a rule of docs/spec.md 9 (`BINDERY_PLUGIN_INVALID`). */
export const PluginError = codedErrorClass('PluginError', 'BINDERY_PLUGIN_INVALID');
/** An instance of {@link PluginError}. */
export type PluginError = InstanceType<typeof PluginError>;

/** A plugin uses a name reserved for the framework (`BINDERY_PLUGIN_NAME_RESERVED`). */
export const PluginNameReservedError = codedErrorClass('PluginNameReservedError', 'BINDERY_PLUGIN_NAME_RESERVED');
/** An instance of {@link PluginNameReservedError}. */
export type PluginNameReservedError = InstanceType<typeof PluginNameReservedError>;

/** Two plugins have the same name (`BINDERY_PLUGIN_NAME_TAKEN`). */
export const PluginNameTakenError = codedErrorClass('PluginNameTakenError', 'BINDERY_PLUGIN_NAME_TAKEN');
/** An instance of {@link PluginNameTakenError}. */
export type PluginNameTakenError = InstanceType<typeof PluginNameTakenError>;

/** A plugin does not support this framework version (`BINDERY_PLUGIN_VERSION_MISMATCH`). */
export const PluginVersionError = codedErrorClass('PluginVersionError', 'BINDERY_PLUGIN_VERSION_MISMATCH');
/** An instance of {@link PluginVersionError}. */
export type PluginVersionError = InstanceType<typeof PluginVersionError>;

/** A plugin needs a service whose setup step is missing (`BINDERY_PLUGIN_NEEDS_SETUP`). */
export const PluginNeedsSetupError = codedErrorClass('PluginNeedsSetupError', 'BINDERY_PLUGIN_NEEDS_SETUP');
/** An instance of {@link PluginNeedsSetupError}. */
export type PluginNeedsSetupError = InstanceType<typeof PluginNeedsSetupError>;

/** No such plugin in the list, or no such package (`BINDERY_PLUGIN_NOT_FOUND`). */
export const PluginNotFoundError = codedErrorClass('PluginNotFoundError', 'BINDERY_PLUGIN_NOT_FOUND');
/** An instance of {@link PluginNotFoundError}. */
export type PluginNotFoundError = InstanceType<typeof PluginNotFoundError>;

/** `bindery add` / `remove` failed at a step; files were restored (`BINDERY_PLUGIN_LIFECYCLE_FAILED`). */
export const PluginLifecycleError = codedErrorClass('PluginLifecycleError', 'BINDERY_PLUGIN_LIFECYCLE_FAILED');
/** An instance of {@link PluginLifecycleError}. */
export type PluginLifecycleError = InstanceType<typeof PluginLifecycleError>;
