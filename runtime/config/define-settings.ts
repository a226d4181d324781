/**
 * Declaring settings (docs/settings.md "Declaring settings").
 *
 * A concept declares its settings once with {@link defineSettings}; the boot
 * combines every concept's declaration with {@link combineSettings} and loads
 * them together, so one error lists every bad setting of the whole app.
 */
import type { CrossSettingProblem, Env, SettingSpecs, SettingsValues } from './setting.js';
import { BinderyError } from '../errors/bindery-error.js';

/** A validated declaration of settings, with optional cross-setting checks. */
export interface SettingsDefinition<S extends SettingSpecs> {
  readonly specs: S;
  /** Checks across settings, each returning problems (empty when fine). They run even when some settings are bad (those read as `undefined`; see `loadSettings`). `env` is the environment the values came from. */
  readonly checks: ReadonlyArray<(values: Readonly<Record<string, unknown>>, env: Env) => readonly CrossSettingProblem[]>;
}

const NAME = /^[A-Z][A-Z0-9_]*$/;

/**
 * Declare a concept's settings.
 *
 * Rules: names are upper-case environment variable names (`A-Z`, digits,
 * `_`); a required setting has no default.
 *
 * @param specs name → spec (see {@link SettingSpec}).
 * @param options `check`: a cross-setting rule over the typed values (and the environment they came from, for
 *   variables that are not settings, such as `NODE_ENV`); return one problem per refused combination.
 * @returns the definition to pass to `loadSettings` or `combineSettings`.
 * @throws {Error} on a malformed name or a required setting with a default (a programming error).
 * @example
 *   export const mailSettings = defineSettings({
 *     MAIL_FROM: { description: 'Sender address.', parser: stringSetting(), default: 'app@localhost' },
 *   });
 */
export function defineSettings<const S extends SettingSpecs>(
  specs: S,
  options: { readonly check?: (values: SettingsValues<S>, env: Env) => readonly CrossSettingProblem[] } = {},
): SettingsDefinition<S> {
  for (const [name, spec] of Object.entries(specs)) {
    if (!NAME.test(name))
      throw new BinderyError('BINDERY_SETUP_INVALID', `defineSettings: "${name}" is not an upper-case environment variable name`);
    if (spec.required && spec.default !== undefined)
      throw new BinderyError('BINDERY_SETUP_INVALID', `defineSettings: ${name} is required and has a default; drop one`);
  }
  const check = options.check;
  return {
    specs,
    checks: check ? [(values, env) => check(values as SettingsValues<S>, env)] : [],
  };
}

/** The combined specs of several definitions. */
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type CombinedSpecs<D extends readonly SettingsDefinition<SettingSpecs>[]> = UnionToIntersection<D[number]['specs']> & SettingSpecs;

/**
 * Combine several declarations into one, to load them together.
 * @throws {Error} when two declarations declare the same name (the message names it).
 * @example const all = combineSettings(coreSettings, sessionSettings);
 */
export function combineSettings<const D extends readonly SettingsDefinition<SettingSpecs>[]>(
  ...definitions: D
): SettingsDefinition<CombinedSpecs<D>> {
  const specs: Record<string, unknown> = {};
  for (const d of definitions) {
    for (const [name, spec] of Object.entries(d.specs)) {
      if (name in specs) throw new BinderyError('BINDERY_SETUP_INVALID', `combineSettings: the setting ${name} is declared twice`);
      specs[name] = spec;
    }
  }
  return { specs: specs as CombinedSpecs<D>, checks: definitions.flatMap((d) => d.checks) };
}
