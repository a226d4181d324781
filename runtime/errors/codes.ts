/**
 * The registry of coded errors (docs/errors.md; Fastify's
 * `lib/errors.js` is the model). Every error bindery raises on purpose has a
 * stable `BINDERY_…` code here, with the HTTP status it answers when it
 * reaches a client (absent for boot, CLI and generator errors) and a
 * one-line summary. `docs/errors.md` gives each code's cause and fix; a test
 * checks the two lists against each other in both directions.
 *
 * The codes live by area in runtime/errors/codes/ (http, data, accounts,
 * tooling); add one in the section of its area, keeping it sorted.
 */
import { ACCOUNT_CODES } from './codes/accounts.js';
import { DATA_CODES } from './codes/data.js';
import { HTTP_CODES } from './codes/http.js';
import type { ErrorCodeSpec } from './codes/spec.js';
import { TOOLING_CODES } from './codes/tooling.js';

export type { ErrorCodeSpec } from './codes/spec.js';

/** Every registered code with its status, summary and message template. */
export const ERROR_CODES = {
  ...HTTP_CODES,
  ...DATA_CODES,
  ...ACCOUNT_CODES,
  ...TOOLING_CODES,
} as const satisfies Record<string, ErrorCodeSpec>;

/** Every registered error code. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The registered codes that answer an HTTP status (the ones an `HttpError` can be built from). */
export type HttpErrorCode = { [C in ErrorCode]: (typeof ERROR_CODES)[C] extends { readonly status: number } ? C : never }[ErrorCode];

/**
 * The HTTP status a registered code answers, or `undefined` for boot, CLI and
 * generator codes. The one place statuses come from: `HttpError` and
 * `BinderyError` read it here.
 */
export function statusOf(code: string): number | undefined {
  return (ERROR_CODES as Readonly<Record<string, ErrorCodeSpec>>)[code]?.status;
}

/**
 * Where a code is documented: its row of `docs/errors.md`, whose anchor is
 * the code in lower case (the registry test checks every anchor exists).
 * @example docsOf('BINDERY_SEED_FAILED') // 'docs/errors.md#bindery_seed_failed'
 */
export function docsOf(code: string): string {
  return `docs/errors.md#${code.toLowerCase()}`;
}

/** The `{name}` placeholders of a message template, as a union of names. */
type PlaceholdersOf<T extends string> = T extends `${string}{${infer P}}${infer Rest}` ? P | PlaceholdersOf<Rest> : never;

/** The registered codes that carry a message template. */
export type TemplatedCode = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C] extends { readonly message: string } ? C : never;
}[ErrorCode];

/** The values a code's message template needs: one per `{name}` placeholder. */
export type MessageParams<C extends TemplatedCode> = (typeof ERROR_CODES)[C] extends { readonly message: infer M extends string }
  ? Readonly<Record<PlaceholdersOf<M>, string | number>>
  : never;

/**
 * The message of a templated code with its placeholders filled in
 * (`{file}` → `params.file`, as text).
 * @throws {RangeError} when the code has no template, or a placeholder has no value.
 * @example errorMessage('BINDERY_SEED_FAILED', { file: 'app/seeds/01.ts', reason: 'it threw' })
 */
export function errorMessage<C extends TemplatedCode>(code: C, params: MessageParams<C>): string {
  const template = (ERROR_CODES as Readonly<Record<string, ErrorCodeSpec>>)[code]?.message;
  if (template === undefined) throw new RangeError(`Error code ${code} has no message template in runtime/errors/codes.ts.`);
  const values = params as Readonly<Record<string, string | number | undefined>>;
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new RangeError(`The message of ${code} needs a value for {${name}}.`);
    return String(value);
  });
}
