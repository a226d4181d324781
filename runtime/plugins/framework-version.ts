/**
 * The framework's own version (docs/spec.md 9 "Versioning"): the `version` of
 * bindery's package.json — 0.3.0 is the runtime with the audit log and
 * plugins' jobs, schedule and events. Plugins declare a semver range of it.
 */
import semver from 'semver';
import { binderyVersion } from '../support/package-root.js';

/** bindery's version, e.g. `0.3.0`. */
export const FRAMEWORK_VERSION: string = binderyVersion();

/** True when `range` is a valid semver range (`>=0.2.0 <0.4.0`, `^0.3.0`). */
export function isValidRange(range: unknown): range is string {
  return typeof range === 'string' && range.trim() !== '' && semver.validRange(range) !== null;
}

/**
 * Whether `version` (default: this framework's) is in `range`. Pre-releases
 * count as their release (`0.4.0-beta.1` satisfies `>=0.4.0-0`, as npm does with `includePrerelease`).
 */
export function frameworkSatisfies(range: string, version: string = FRAMEWORK_VERSION): boolean {
  return semver.satisfies(version, range, { includePrerelease: true });
}
