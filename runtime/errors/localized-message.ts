/**
 * A message named by its catalog key (docs/i18n.md "Errors"): errors carry
 * it next to their English text, and the HTTP layer words it in the
 * request's locale once that is known.
 */

/** A catalog key and the values of its placeholders. */
export interface LocalizedMessage {
  /** The catalog key, e.g. `validation.required`. */
  readonly key: string;
  /** Placeholder values (texts and numbers). */
  readonly values?: Readonly<Record<string, string | number>>;
  /**
   * Placeholders that name an input field, by placeholder: `{ attribute: 'title' }`.
   * The value is replaced by the catalog's `attributes.<field>` when it has one.
   */
  readonly fields?: Readonly<Record<string, string>>;
}
