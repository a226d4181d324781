/**
 * Settings: declaring, loading and documenting environment-variable settings
 * (docs/settings.md).
 */
export type {
  Env,
  SettingParser,
  SettingSpec,
  SettingSpecs,
  SettingsValues,
} from './setting.js';
export { combineSettings, defineSettings, type SettingsDefinition } from './define-settings.js';
export { SettingsError } from './load-settings.js';
export {
  addressSetting,
  booleanSetting,
  durationSetting,
  enumSetting,
  integerSetting,
  listSetting,
  sizeSetting,
  stringSetting,
  urlSetting,
  type ListenAddress,
} from './parsers.js';
export { appKeySetting } from './app-key.js';
export { coreSettings, type CoreSettings } from './core-settings.js';
