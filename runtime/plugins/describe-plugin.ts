/**
 * How `bindery plugins:list` and `plugins:env` describe a plugin (docs/plugins.md "Commands").
 */
import type { SettingSpec } from '../config/setting.js';
import type { Plugin } from './define-plugin.js';

/** The ROUTES cell: `POST /mailprovider/webhook`, comma-separated; `—` for none. */
export function routesSummary(plugin: Plugin, mount = `/${plugin.name}`): string {
  const table = plugin.routes?.table ?? [];
  if (table.length === 0) return '—';
  return table.map((r) => `${r.method} ${mount}${r.path.slice(plugin.name.length + 1)}`).join(', ');
}

/** The ADDS cell: `2 settings, migrations, 2 commands, 1 job, 1 listener`; `—` for nothing. */
export function addsSummary(plugin: Plugin): string {
  const parts: string[] = [];
  const count = (n: number, one: string, many = `${one}s`) => {
    if (n > 0) parts.push(`${n} ${n === 1 ? one : many}`);
  };
  count(Object.keys(plugin.settings?.specs ?? {}).length, 'setting');
  if (plugin.migrations !== undefined) parts.push('migrations');
  count(plugin.commands?.length ?? 0, 'command');
  count(plugin.jobs?.length ?? 0, 'job');
  count(plugin.schedule?.length ?? 0, 'scheduled task');
  count(plugin.events?.length ?? 0, 'event');
  count(plugin.listeners?.length ?? 0, 'listener');
  if (plugin.setup) parts.push('boot work');
  return parts.length === 0 ? '—' : parts.join(', ');
}

/**
 * Every setting of a plugin as `NAME=` lines under `# <plugin>`, each after a
 * comment saying whether it is required, its default, and what it does
 * (what `plugins:env` prints and `bindery add` appends to `.env.example`).
 * @example
 *   # mailprovider
 *   # MAILPROVIDER_WEBHOOK_USER (required): User name the provider sends with each webhook (HTTP Basic).
 *   MAILPROVIDER_WEBHOOK_USER=
 */
export function pluginEnvText(plugin: Plugin): string {
  const lines = [`# ${plugin.name}`];
  const specs = Object.entries(plugin.settings?.specs ?? {}) as [string, SettingSpec<unknown>][];
  if (specs.length === 0) lines.push('# (no settings)');
  for (const [name, spec] of specs) {
    const dflt = typeof spec.default === 'function' ? spec.default({}) : spec.default;
    const marks = [
      spec.required ? 'required' : dflt !== undefined ? `optional, default ${dflt === '' ? '(empty)' : dflt}` : 'optional',
      ...(spec.secret ? ['secret'] : []),
    ];
    lines.push(`# ${name} (${marks.join(', ')}): ${spec.description} Allowed: ${spec.parser.allowed}.`, `${name}=`);
  }
  return `${lines.join('\n')}\n`;
}
