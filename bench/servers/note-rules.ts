/**
 * The `POST /notes` rules of the reference schema, written out for the
 * hand-written peer servers: as a JSON schema (for Fastify's ajv) and as a
 * check by hand (for raw `node:http`). Shared so every peer checks the same
 * rules as bindery's generated validator.
 */

/** The note body as a JSON schema: title required (max 200), body max 10000, tags max 5, distinct, alpha_dash. */
export const noteSchema = {
  type: 'object',
  required: ['title'],
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
    body: { type: 'string', maxLength: 10000 },
    tags: { type: 'array', maxItems: 5, uniqueItems: true, items: { type: 'string', pattern: '^[\\p{L}\\p{M}\\p{N}_-]+$' } },
  },
} as const;

const ALPHA_DASH = /^[\p{L}\p{M}\p{N}_-]+$/u;

/** The same rules by hand: field → bindery's message for the first failed rule, or null when the body passes. */
export function checkNote(input: unknown): Record<string, string> | null {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { _: 'The body must be a JSON object.' };
  const o = input as Record<string, unknown>;
  const errors: Record<string, string> = {};
  if (typeof o.title !== 'string' || !/\S/.test(o.title)) errors.title = 'The title field is required.';
  else if ([...o.title].length > 200) errors.title = 'The title field must not be greater than 200 characters.';
  if (o.body !== undefined && (typeof o.body !== 'string' || [...o.body].length > 10000))
    errors.body = 'The body field must not be greater than 10000 characters.';
  if (o.tags !== undefined) {
    const tags = o.tags;
    if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string')) errors.tags = 'The tags field must be an array of strings.';
    else if (tags.length > 5) errors.tags = 'The tags field must not have more than 5 items.';
    else if (new Set(tags).size !== tags.length) errors.tags = 'The tags field has a duplicate value.';
    else if (tags.some((t) => !ALPHA_DASH.test(t as string)))
      errors.tags = 'The tags field must only contain letters, numbers, dashes, and underscores.';
  }
  return Object.keys(errors).length > 0 ? errors : null;
}
