/**
 * What `bindery add` does when a plugin's framework range does not include
 * this bindery (docs/spec.md 9: "Adding a plugin outside the range is refused … If
 * the plugin needs a newer framework than the app has, the framework is
 * upgraded and this is reported"; docs/plugins.md "Versions").
 *
 * Upgrading means `npm install bindery@"<range>"` in the app: npm picks the
 * newest bindery in the plugin's range, package.json and the lock file
 * record it, and the rest of `add` (generate, type check) runs with it. It
 * is possible only when the app gets bindery from a registry (a semver
 * range in its dependencies). It is refused when:
 * - the project is bindery itself (the framework's repository: its version
 *   is its own package.json, changed by a release, not by `add`);
 * - the app gets bindery from a folder, tarball or git URL (npm cannot
 *   choose another version of those);
 * - the plugin needs an older bindery than the app has (downgrading the
 *   framework for a plugin is never done: use a newer version of the plugin).
 */
import semver from 'semver';

/** The decision. */
export type FrameworkPlan =
  | { readonly action: 'none' }
  | { readonly action: 'upgrade'; readonly range: string; readonly message: string }
  | { readonly action: 'refuse'; readonly message: string };

/** How the project gets bindery. */
export interface FrameworkSource {
  /** The project's package name is `bindery`: it is the framework itself. */
  readonly isFramework: boolean;
  /** The project's dependency spec of bindery (`^0.3.0`, `file:../bindery`), if any. */
  readonly dependencySpec?: string;
}

/**
 * Decide what to do about the framework for a plugin.
 * @param pluginLabel e.g. `@acme/greeter 2.0.0`.
 * @param range the plugin's `peerDependencies.bindery`.
 * @param version this bindery's version.
 */
export function planFramework(pluginLabel: string, range: string, version: string, source: FrameworkSource): FrameworkPlan {
  if (semver.validRange(range) === null)
    return {
      action: 'refuse',
      message: `${pluginLabel} declares the framework range ${JSON.stringify(range)}, which is not a semver range.`,
    };
  if (semver.satisfies(version, range, { includePrerelease: true })) return { action: 'none' };
  const needs = `${pluginLabel} requires bindery ${range}; this app has bindery ${version}`;
  if (!semver.ltr(version, range, { includePrerelease: true })) {
    return {
      action: 'refuse',
      message: `${needs}, which is newer than the plugin supports. Use a version of the plugin made for bindery ${version} (e.g. "bindery add <package>@<version>"). Nothing was changed.`,
    };
  }
  if (source.isFramework) {
    return {
      action: 'refuse',
      message: `${needs}. This project is bindery itself (the framework's repository), whose version only a release changes, so "add" cannot upgrade it: update this checkout to a bindery in ${range}, or use a version of the plugin made for ${version}. Nothing was changed.`,
    };
  }
  const spec = source.dependencySpec;
  if (spec === undefined) {
    return {
      action: 'refuse',
      message: `${needs}, and its package.json does not list bindery as a dependency, so "add" cannot upgrade it: run "npm install bindery@\\"${range}\\"" first. Nothing was changed.`,
    };
  }
  if (semver.validRange(spec) === null && !/^(latest|next)$/.test(spec)) {
    return {
      action: 'refuse',
      message: `${needs}, installed from ${JSON.stringify(spec)} (not a registry version), so "add" cannot upgrade it: install a bindery in ${range} yourself, then add the plugin again. Nothing was changed.`,
    };
  }
  return { action: 'upgrade', range, message: `${needs}: upgrading bindery to the newest version in ${range}.` };
}
