/**
 * Field failures of an input (docs/spec.md 4.5, binding steps 3 to 5).
 */
import { HttpError } from './http-error.js';
import type { LocalizedMessage } from './localized-message.js';

/** `detail` of a 422 (docs/spec.md 4.5 step 4). */
export const VALIDATION_DETAIL = 'The given data was invalid.';
/** `detail` of a 400 conversion failure (docs/spec.md 4.5 step 3). */
export const CONVERSION_DETAIL = 'The request has invalid values.';

/**
 * 422: one message per failing field.
 *
 * Thrown by the rule validator, and by a handler's own `validate` (binding
 * step 5). Keys are input keys (the YAML keys); the runtime renders them
 * under the client's names, in the input's field order (keys that are not
 * input fields follow, in their own order). A message may contain
 * `:attribute`, replaced by the client's name of the field with `_` as spaces.
 * A field of an object field is keyed by its key path, `user.email`
 * (docs/schema-language.md "Nested input"), and answered under the client's path.
 *
 * @param fieldErrors message per input key, e.g. `{ title: 'The title must not be "untitled".' }`.
 * @param message the `detail` (default "The given data was invalid.").
 * @param fieldMessages catalog messages of some fields, answered in the request's locale with `i18n()` (docs/i18n.md).
 * @example throw new ValidationError({ title: 'The :attribute must not be "untitled".' })
 */
export class ValidationError extends HttpError {
  constructor(
    fieldErrors: Readonly<Record<string, string>>,
    message: string = VALIDATION_DETAIL,
    fieldMessages?: Readonly<Record<string, LocalizedMessage>>,
  ) {
    super('BINDERY_VALIDATION_FAILED', message, fieldMessages === undefined ? { fieldErrors } : { fieldErrors, fieldMessages });
  }

  override get name(): string {
    return 'ValidationError';
  }
}

/**
 * 400: fields whose values could not be converted to their declared types
 * (docs/spec.md 4.5 step 3). Every such field is listed, keyed by input key.
 */
export class ConversionError extends HttpError {
  constructor(fieldErrors: Readonly<Record<string, string>>) {
    super('BINDERY_BAD_REQUEST', CONVERSION_DETAIL, { fieldErrors });
  }

  override get name(): string {
    return 'ConversionError';
  }
}
