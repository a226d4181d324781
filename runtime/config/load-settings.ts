/**
 * Loading settings from the environment: a bad or missing required setting
 * stops the boot with a message that names it (docs/settings.md).
 */
import { CodedError } from '../errors/coded-error.js';
import { errorMessage } from '../errors/codes.js';
import type { SettingsDefinition } from './define-settings.js';
import type { CrossSettingProblem, Env, SettingSpec, SettingSpecs, SettingsValues } from './setting.js';

/** One bad setting (or combination), as listed in a {@link SettingsError}. */
export interface SettingProblem {
  /** The settings at fault (one, or several for a refused combination). */
  readonly names: readonly string[];
  /** The full line: the name, the value seen (secrets masked), what is wrong, the allowed values. */
  readonly message: string;
}

/**
 * Every bad setting found by one `loadSettings` call (code `BINDERY_SETTING_INVALID`).
 * The message lists one problem per line.
 */
export class SettingsError extends CodedError {
  readonly problems: readonly SettingProblem[];
  constructor(problems: readonly SettingProblem[]) {
    const n = problems.length;
    super(
      'BINDERY_SETTING_INVALID',
      errorMessage('BINDERY_SETTING_INVALID', {
        settings: `${n} ${n === 1 ? 'setting is' : 'settings are'}`,
        problems: problems.map((p) => `  - ${p.message}\n`).join(''),
      }),
    );
    this.problems = problems;
  }
}

/** How a value is shown in messages: quoted, or masked for secrets. */
export function showSettingValue(spec: SettingSpec<unknown> | undefined, raw: string): string {
  return spec?.secret ? `<secret, ${raw.length} characters>` : JSON.stringify(raw);
}

/**
 * Read, parse and check every setting of `definition` from `env`.
 *
 * Rules: a value is trimmed; an empty value counts as unset; an unset setting
 * takes its default (parsed like a real value), is `undefined`, or — when
 * required — is a problem. All problems are collected before throwing, in
 * one round: the cross-setting checks run even when some settings are bad
 * (a bad one reads as `undefined`); a problem of a check that names a
 * setting already reported is left out, and a check that throws on such a
 * value is skipped.
 *
 * @param definition from `defineSettings` / `combineSettings`.
 * @param env environment variables (e.g. `process.env` merged with `.env` by `loadEnvironment`).
 * @returns the typed values, frozen, keyed by setting name.
 * @throws {SettingsError} listing every bad setting, each named with the value seen and the allowed values.
 * @example const settings = loadSettings(coreSettings, process.env); settings.HTTP_MAX_BODY // 1048576
 */
export function loadSettings<S extends SettingSpecs>(definition: SettingsDefinition<S>, env: Env): SettingsValues<S> {
  const values: Record<string, unknown> = {};
  const problems: SettingProblem[] = [];
  for (const [name, spec] of Object.entries(definition.specs) as [string, SettingSpec<unknown>][]) {
    const given = env[name]?.trim();
    const fromEnv = given !== undefined && given !== '';
    const text = fromEnv ? given : typeof spec.default === 'function' ? spec.default(env) : spec.default;
    const hint = spec.hint ? `; ${spec.hint}` : '';
    values[name] = undefined;
    if (text === undefined) {
      if (spec.required) problems.push({ names: [name], message: `${name} is missing: expected ${spec.parser.allowed}${hint}` });
      continue;
    }
    const outcome = spec.parser.parse(text);
    if (outcome.ok) {
      values[name] = outcome.value;
      continue;
    }
    const shown = fromEnv ? `${name}=${showSettingValue(spec, env[name]!)}` : `${name} (default ${JSON.stringify(text)})`;
    const reason = outcome.message ? `${outcome.message}; ` : '';
    problems.push({ names: [name], message: `${shown}: ${reason}expected ${spec.parser.allowed}${hint}` });
  }
  problems.push(...crossSettingProblems(definition, values, env, new Set(problems.flatMap((p) => p.names))));
  if (problems.length > 0) throw new SettingsError(problems);
  return Object.freeze(values) as SettingsValues<S>;
}

/**
 * The problems of `definition`'s cross-setting checks over `values`, leaving
 * out what names a setting in `bad` (already reported on its own) and the
 * checks that throw while some setting is bad (they read its `undefined`).
 */
function crossSettingProblems(
  definition: SettingsDefinition<SettingSpecs>,
  values: Readonly<Record<string, unknown>>,
  env: Env,
  bad: ReadonlySet<string>,
): SettingProblem[] {
  const problems: SettingProblem[] = [];
  for (const check of definition.checks) {
    let found: readonly CrossSettingProblem[];
    try {
      found = check(values, env);
    } catch (error) {
      if (bad.size > 0) continue;
      throw error;
    }
    for (const p of found) {
      if (p.names.some((n) => bad.has(n))) continue;
      const shown = p.names.map((n) => {
        const raw = env[n]?.trim();
        return raw ? `${n}=${showSettingValue(definition.specs[n], raw)}` : n;
      });
      problems.push({ names: p.names, message: `${shown.join(' with ')}: ${p.message}` });
    }
  }
  return problems;
}
