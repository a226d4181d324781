/**
 * Base class of the coded errors raised by settings, database, migrator,
 * boot and CLI code (docs/errors.md).
 *
 * A thin subclass of the shared `BinderyError` (runtime/errors) whose `name`
 * is the concrete class (`SettingsError`, `MigrationFailedError`, …). Every
 * instance carries a stable `BINDERY_…` code from `runtime/errors/codes.ts`
 * (documented in `docs/errors.md`). Messages say what happened, the value
 * seen and what to do; the CLI prints `message` without a stack unless
 * `APP_DEBUG=true`.
 */
import { BinderyError } from './bindery-error.js';
import { errorMessage, type ErrorCode, type MessageParams, type TemplatedCode } from './codes.js';

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

/** A class made by {@link codedErrorClass}: `new C(message, { cause })`, always with its one code `C`. */
export interface CodedErrorClass<C extends ErrorCode = ErrorCode> {
  new (message: string, options?: { cause?: unknown }): CodedError;
  /** The registered code every instance carries. */
  readonly code: C;
  /**
   * An instance whose message is the code's template filled with `params`
   * (see {@link errorMessage}); only for codes with a template.
   * The parameter type is `never` for codes without a template, so a call does not compile.
   * @throws {RangeError} when a placeholder has no value.
   */
  from(params: C extends TemplatedCode ? MessageParams<C> : never, options?: { cause?: unknown }): CodedError;
}

/**
 * The one factory of templated errors: a `CodedError` of `code` whose
 * message is the code's template (`runtime/errors/codes.ts`) filled with
 * `params`. Codes without a template keep hand-built messages
 * (`new BinderyError(code, message)` or a class of {@link codedErrorClass}).
 * @param params one value per `{name}` placeholder of the template (checked at compile time).
 * @param options.cause the underlying error.
 * @throws {RangeError} when a placeholder has no value.
 * @example throw codedError('BINDERY_SEED_FAILED', { file: 'app/seeds/01_users.ts', reason: 'it threw' }, { cause })
 */
export function codedError<C extends TemplatedCode>(code: C, params: MessageParams<C>, options?: { cause?: unknown }): CodedError {
  return new CodedError(code, errorMessage(code, params), options);
}

/**
 * The error class of one registered code: the one factory bindery's coded
 * errors are built with, so a class is a name and a code from
 * `runtime/errors/codes.ts`, never a hand-written constructor.
 * Instances are `CodedError`s (and `BinderyError`s): `instanceof` works on
 * the class, `name` is `name`, `status` comes from the registry.
 * @param name the class name, shown as the error's `name`, e.g. `SettingsError`.
 * @param code the registered code, e.g. `BINDERY_SETTING_INVALID`.
 * @example export const ListenError = codedErrorClass('ListenError', 'BINDERY_LISTEN_FAILED');
 */
export function codedErrorClass<C extends ErrorCode>(name: string, code: C): CodedErrorClass<C> {
  const made = class extends CodedError {
    static readonly code = code;
    constructor(message: string, options?: { cause?: unknown }) {
      super(code, message, options);
    }
    static from(params: C extends TemplatedCode ? MessageParams<C> : never, options?: { cause?: unknown }): CodedError {
      return new made(errorMessage(code as TemplatedCode, params as MessageParams<TemplatedCode>), options);
    }
  };
  Object.defineProperty(made, 'name', { value: name });
  return made;
}
