/**
 * Settings: declaring, loading and documenting environment-variable settings
 * (docs/settings.md).
 */
export type {
  CrossSettingProblem,
  Env,
  ParseOutcome,
  SettingParser,
  SettingSpec,
  SettingSpecs,
  SettingValue,
  SettingsValues,
} from './setting.js';
export { combineSettings, defineSettings, type SettingsDefinition } from './define-settings.js';
export { loadSettings, SettingsError, showSettingValue, type SettingProblem } from './load-settings.js';
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
export { APP_KEY_BYTES, appKeySetting, decodeAppKey, generateAppKey } from './app-key.js';
export { coreSettings, defaultHttpAddr, LOG_LEVELS, type CoreSettings, type LogLevel } from './core-settings.js';
export { envFilePath, loadEnvironment, readEnvFile, setEnvFileValues } from './env-file.js';
export { renderEnvFile } from './env-example.js';
