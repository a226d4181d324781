/**
 * Cache values are JSON (docs/auth.md "The cache").
 */

/**
 * The JSON text of a cache value.
 * @throws {TypeError} for a value JSON cannot represent (`undefined`, a function, a BigInt, a cycle).
 */
export function toJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new TypeError(`A cache value must be JSON: ${(error as Error).message}`, { cause: error });
  }
  if (text === undefined) throw new TypeError(`A cache value must be JSON, got ${typeof value}.`);
  return text;
}
