/**
 * Registered error codes: The generator, plugins, observability (merged into `ERROR_CODES` by
 * runtime/errors/codes.ts; causes and fixes in docs/errors.md). Keep each
 * section sorted.
 */
import type { ErrorCodeSpec } from './spec.js';

/** The generator, plugins, observability. */
export const TOOLING_CODES = {
  // ── generator (generator/) ──
  BINDERY_MIGRATION_DESTRUCTIVE: {
    summary: 'The schema change would drop a table or column or narrow a column type; refused without allowDestructive.',
    message: '{change}; to write this migration anyway, pass allowDestructive (bindery generate --allow-destructive)',
  },
  BINDERY_MIGRATION_UNSUPPORTED: {
    summary:
      'The schema change cannot be migrated safely as written (e.g. a NOT NULL column without default) or the migration history is broken.',
  },
  BINDERY_SCHEMA_INVALID: { summary: 'A schema file has an error; nothing under generated/ changed.' },
  BINDERY_SCHEMA_RESERVED_NAME: {
    summary: 'A schema file uses a prototype key (__proto__, constructor, prototype) as a key or a name; nothing under generated/ changed.',
    message: '"{name}" is reserved: every JavaScript object already has a "{name}", so {consequence}; {fix} (reserved: {reserved})',
  },
  BINDERY_SCHEMA_RESERVED_TABLE: {
    summary: 'A resource uses a table the framework, a setup step or a plugin creates; nothing under generated/ changed.',
    message:
      'table "{table}" is reserved: it is created by {owner}, so this resource\'s migration would fail with "relation already exists"; choose another table name, e.g. "{suggestion}" (see "Reserved names" in docs/schema-language.md)',
  },

  // ── plugins (runtime/plugins) ──
  BINDERY_PLUGIN_INVALID: {
    summary:
      "A plugin manifest is invalid (a name outside the plugin's namespace, a setting without its prefix, a route outside its path).",
  },
  BINDERY_PLUGIN_LIFECYCLE_FAILED: { summary: 'bindery add or remove failed at one step; every file it changed was restored.' },
  BINDERY_PLUGIN_NAME_RESERVED: {
    summary: 'A plugin uses a name reserved for the framework (auth, session, queue, jobs, …).',
    message: 'The plugin name "{name}" is reserved for the framework (reserved: {reserved}); the plugin must use another name.',
  },
  BINDERY_PLUGIN_NAME_TAKEN: { summary: 'Two plugins of the app have the same name.' },
  BINDERY_PLUGIN_NEEDS_SETUP: {
    summary: 'A plugin needs a service whose setup step is missing from the app (the message names the setup call).',
  },
  BINDERY_PLUGIN_NOT_FOUND: { summary: 'No plugin of that name or package is in the plugin list, or the package cannot be found.' },
  BINDERY_PLUGIN_VERSION_MISMATCH: { summary: 'A plugin supports another range of framework versions than this bindery.' },

  // ── observability: traces, metrics, the development dashboard (runtime/observability) ──
  BINDERY_METRICS_FORBIDDEN: {
    status: 403,
    summary: 'GET /metrics from another machine while METRICS_TOKEN is unset: only clients on this machine may read it.',
  },
  BINDERY_METRICS_UNAUTHORIZED: {
    status: 401,
    summary: 'GET /metrics from another machine without Authorization: Bearer <METRICS_TOKEN>, or with another token.',
  },
  BINDERY_TELEMETRY_EXPORT_FAILED: {
    summary: 'Spans or metrics could not be sent to the OTLP receiver and were dropped; requests are not affected (logged only).',
  },
  BINDERY_LANG_INVALID: {
    summary: 'A message catalog (lang/<locale>/<namespace>.yaml) is not YAML of texts, or a plugin declares a namespace not its own.',
  },
  BINDERY_LANG_KEY_MISSING: {
    summary:
      'A message key is missing in the locale asked for (logged once per key and locale; the fallback locale, then the key, is shown).',
  },
} as const satisfies Record<string, ErrorCodeSpec>;
