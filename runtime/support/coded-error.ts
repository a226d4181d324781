/**
 * Base class of the coded errors raised by settings, database, migrator,
 * boot and CLI code (CONVENTIONS.md "Errors"; DESIGN.md 7).
 *
 * A thin subclass of the shared `BinderyError` (runtime/errors) whose `name`
 * is the concrete class (`SettingsError`, `MigrationFailedError`, …). Every
 * instance carries a stable `BINDERY_…` code from `runtime/errors/codes.ts`
 * (documented in `docs/errors.md`). Messages say what happened, the value
 * seen and what to do; the CLI prints `message` without a stack unless
 * `APP_DEBUG=true`.
 */
import { BinderyError } from '../errors/bindery-error.js';

export class CodedError extends BinderyError {
  override get name(): string {
    return this.constructor.name;
  }
}

/** True when `error` is a coded bindery error (a `BinderyError`, or any error whose `code` starts with `BINDERY_`). */
export function isCodedError(error: unknown): error is BinderyError {
  if (error instanceof BinderyError) return true;
  const code: unknown = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('BINDERY_');
}
