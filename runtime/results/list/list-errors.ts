/**
 * The list routes' coded error (runtime/errors/codes.ts; docs/errors.md).
 */
import { HttpError } from '../../errors/http-error.js';

/** A list cursor this list did not make, or made for another sort or other filters (400 on the `cursor` field). */
export class ListCursorError extends HttpError {
  /** @param message what is wrong and what to do; also the `cursor` field's message. */
  constructor(message: string) {
    super('BINDERY_LIST_CURSOR_INVALID', message, { fieldErrors: { cursor: message } });
  }

  override get name(): string {
    return 'ListCursorError';
  }
}
