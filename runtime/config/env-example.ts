/**
 * Rendering settings declarations as an env file (`.env.example`, and the
 * `.env` that `bindery start` creates when none exists; docs/settings.md).
 */
import type { SettingsDefinition } from './define-settings.js';
import type { SettingSpec, SettingSpecs } from './setting.js';

/**
 * Render an env file documenting every setting of `definition`.
 *
 * Each setting gets its description and allowed values as comments; a
 * required setting is written uncommented (with the value from `values`, or
 * empty); a setting with a default is written commented out with its default
 * (a function default shows its value for an empty environment); other
 * settings are written commented out with their example.
 *
 * @param definition the settings to list, in declaration order.
 * @param options `title`: a first comment line; `values`: values to fill in (e.g. a fresh `APP_KEY`).
 */
export function renderEnvFile<S extends SettingSpecs>(
  definition: SettingsDefinition<S>,
  options: { readonly title?: string; readonly values?: Readonly<Record<string, string>> } = {},
): string {
  const out: string[] = [];
  if (options.title) out.push(...options.title.split('\n').map((l) => `# ${l}`), '');
  for (const [name, spec] of Object.entries(definition.specs) as [string, SettingSpec<unknown>][]) {
    out.push(`# ${spec.description}`);
    const dflt = typeof spec.default === 'function' ? spec.default({}) : spec.default;
    const extra = spec.required ? 'Required.' : dflt !== undefined ? `Default: ${dflt === '' ? '(empty)' : dflt}.` : 'Optional.';
    out.push(`# Allowed: ${spec.parser.allowed}. ${extra}`);
    const given = options.values?.[name];
    if (given !== undefined) out.push(`${name}=${given}`);
    else if (spec.required) out.push(`${name}=`);
    else out.push(`# ${name}=${dflt ?? (spec.secret && !spec.example ? '' : (spec.example ?? ''))}`);
    out.push('');
  }
  return out.join('\n');
}
