import { describe, expect, it } from 'vitest';
import { HttpError, NotFoundError, ValidationError } from '../../../runtime/errors/index.js';

describe('HttpError | stack traces only where one is ever shown', () => {
  it('a 4xx error carries no stack frames, and is still an Error with its fields', () => {
    const error = new ValidationError({ title: 'The title field is required.' });
    expect(error).toBeInstanceOf(Error);
    expect(error.status).toBe(422);
    expect(error.fieldErrors).toEqual({ title: 'The title field is required.' });
    expect(error.stack).not.toMatch(/\n\s+at /);
    expect(new NotFoundError('gone').stack).not.toMatch(/\n\s+at /);
  });

  it('a 5xx error keeps its stack trace, and the stack trace limit is left as it was', () => {
    const before = Error.stackTraceLimit;
    new HttpError(404, 'x');
    expect(Error.stackTraceLimit).toBe(before);
    expect(new HttpError(503, 'busy').stack).toMatch(/\n\s+at /);
    expect(new Error('plain').stack).toMatch(/\n\s+at /);
  });
});
