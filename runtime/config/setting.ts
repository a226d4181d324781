/**
 * The shape of a setting declaration. Settings are environment variables
 * (optionally `.env`), validated at boot (docs/settings.md).
 *
 * Every concept (core, sessions, auth, audit, plugins) declares its settings
 * as a map of name → {@link SettingSpec} with {@link defineSettings}; the boot
 * loads all of them at once with `loadSettings`, so one error lists every bad
 * setting.
 */

/** Environment variables as read: names to raw text, absent when unset. */
export type Env = Readonly<Record<string, string | undefined>>;

/** Outcome of parsing one raw value. `message` says what is wrong with this value (the allowed values are added by the loader). */
export type ParseOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message?: string };

/**
 * Turns the raw text of a setting into a typed value.
 *
 * `parse` receives the text trimmed and never empty (an empty value counts
 * as unset). It never throws: it returns `{ ok: false, message }`, where the
 * message explains what is wrong with this particular value (e.g. `70000 is
 * above the maximum 65535`); the loader adds {@link allowed}.
 */
export interface SettingParser<T> {
  /** The allowed values in words, for messages and docs: `one of development, testing, production`. */
  readonly allowed: string;
  parse(text: string): ParseOutcome<T>;
}

/**
 * One setting.
 *
 * - `default`: raw text parsed like a real value (so docs and `.env.example`
 *   show it as users would write it), or a function of the whole environment
 *   for defaults that depend on another variable (`HTTP_ADDR` on `PORT`).
 * - `required`: without a value the boot stops. A required setting has no default.
 * - Neither: the value is `undefined` when unset.
 * - `secret`: the value is never shown in messages (only its length) nor as an example.
 */
export interface SettingSpec<T> {
  /** What the setting does, one or two sentences (docs, `.env.example`). */
  readonly description: string;
  readonly parser: SettingParser<T>;
  readonly default?: string | ((env: Env) => string);
  readonly required?: boolean;
  readonly secret?: boolean;
  /** An example value for docs and `.env.example` (never a real secret). */
  readonly example?: string;
  /** Extra advice appended to any problem with this setting, e.g. `run "bindery key:generate" to make one`. */
  readonly hint?: string;
  /**
   * Makes a fresh value for a new development `.env` (a random secret, a
   * local user name): when `bindery start` creates `.env`, every empty setting
   * that has one is filled in, so a fresh checkout boots with one command.
   * Production values are never generated: set them yourself.
   */
  readonly generate?: () => string;
}

/** Settings of one concept: name → spec. Names are upper-case environment variable names. */
export type SettingSpecs = Readonly<Record<string, SettingSpec<unknown>>>;

/** The value type of one spec: `T` when required or defaulted, else `T | undefined`. */
export type SettingValue<S> =
  S extends SettingSpec<infer T>
    ? S extends { readonly required: true }
      ? T
      : S extends { readonly default: string | ((env: Env) => string) }
        ? T
        : T | undefined
    : never;

/** The loaded, typed values of a set of specs. */
export type SettingsValues<S extends SettingSpecs> = { readonly [K in keyof S]: SettingValue<S[K]> };

/**
 * A problem found by a cross-setting check (e.g. `APP_DEBUG=true` with
 * `APP_ENV=production`): the names involved and what to do.
 */
export interface CrossSettingProblem {
  /** The settings involved, each shown with its value. */
  readonly names: readonly string[];
  /** Why the combination is refused and what to change. */
  readonly message: string;
}
