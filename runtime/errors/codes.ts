/**
 * The registry of coded errors (CONVENTIONS.md "Errors"; Fastify's
 * `lib/errors.js` is the model). Every error bindery raises on purpose has a
 * stable `BINDERY_…` code here, with the HTTP status it answers when it
 * reaches a client (absent for boot, CLI and generator errors) and a
 * one-line summary. `docs/errors.md` gives each code's cause and fix; a test
 * checks the two lists against each other in both directions.
 *
 * Add codes in the section of their area; keep each section sorted.
 */
export interface ErrorCodeSpec {
  /** HTTP status when the error reaches a client; absent for boot/CLI/generator errors. */
  readonly status?: number;
  /** One-line summary (the problem-details `title` comes from the status). */
  readonly summary: string;
}

export const ERROR_CODES = {
  // ── http: binding, validation, results, routing (runtime/http, runtime/binding) ──
  BINDERY_BAD_REQUEST: { status: 400, summary: 'The request has invalid values (conversion failure).' },
  BINDERY_VALIDATION_FAILED: { status: 422, summary: 'The given data was invalid.' },

  // ── config and boot (runtime/config, runtime/app) ──
  BINDERY_SETTING_INVALID: { summary: 'A setting is missing or has an invalid value; the boot stops.' },

  // ── database and migrations (runtime/db) ──

  // ── generator (generator/) ──
  BINDERY_SCHEMA_INVALID: { summary: 'A schema file has an error; nothing under generated/ changed.' },
} as const satisfies Record<string, ErrorCodeSpec>;

/** Every registered error code. */
export type ErrorCode = keyof typeof ERROR_CODES;
