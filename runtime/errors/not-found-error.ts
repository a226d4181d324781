/**
 * 404 for a resource that does not exist (docs/spec.md 4.3, `GET /notes/{id}`).
 */
import { HttpError } from './http-error.js';

/**
 * 404 Not Found with a message for the client.
 * @param message default "The requested resource was not found."
 * @example if (!note) throw new NotFoundError(`No note has the id ${input.id}.`)
 */
export class NotFoundError extends HttpError {
  constructor(message = 'The requested resource was not found.', options: { cause?: unknown } = {}) {
    super('BINDERY_NOT_FOUND', message, { ...options });
  }

  override get name(): string {
    return 'NotFoundError';
  }
}
