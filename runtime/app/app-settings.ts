/**
 * Loading every setting of an app at once: the core settings and those of
 * each setup step (docs/settings.md), so one error lists every bad setting.
 */
import { combineSettings, type SettingsDefinition } from '../config/define-settings.js';
import { coreSettings, type CoreSettings } from '../config/core-settings.js';
import { loadSettings } from '../config/load-settings.js';
import type { Env } from '../config/setting.js';
import type { App } from './define-app.js';
import type { SettingSpecs } from '../config/setting.js';

/** The loaded settings of an app. */
export interface AppSettings {
  /** The core settings, typed. */
  readonly core: CoreSettings;
  /** Every setting (core and setup steps'), by name. */
  readonly all: Readonly<Record<string, unknown>>;
  /** The settings given a value (in the environment or `.env`, not empty); the others took their defaults or are unset. */
  readonly given: ReadonlySet<string>;
}

/**
 * @throws {SettingsError} listing every bad setting of the core and of every setup step.
 */
export function loadAppSettings(app: App, env: Env): AppSettings {
  const steps = app.setup.flatMap((s) => (s.settings ? [s.settings as SettingsDefinition<SettingSpecs>] : []));
  const all = loadSettings(combineSettings(coreSettings, ...steps), env) as Readonly<Record<string, unknown>>;
  const given = new Set(Object.keys(all).filter((name) => (env[name]?.trim() ?? '') !== ''));
  return { core: all as unknown as CoreSettings, all, given };
}
