/**
 * The sections of the back office (docs/back-office.md "Sections"): one per
 * resource the schema marks with `backOffice:`, as `bindery generate` emits
 * them into `generated/back-office.ts` — fields with their types, rules and
 * relations, list columns, filters, search fields, field order and labels
 * (the YAML's overrides already applied).
 */

/** The kind of a field's value as the back office shows and edits it. */
export type SectionFieldType =
  | 'string'
  | 'text'
  | 'integer'
  | 'bigint'
  | 'number'
  | 'boolean'
  | 'enum'
  | 'timestamp'
  | 'duration'
  | 'uuid'
  | 'json'
  | 'file'
  | 'list';

/** One field (column) of a section. */
export interface SectionField {
  /** The column. */
  readonly name: string;
  /** What pages call it. */
  readonly label: string;
  readonly type: SectionFieldType;
  readonly nullable: boolean;
  /** The column has a default (a create may leave it out). */
  readonly hasDefault: boolean;
  /** Largest length of a string, in characters. */
  readonly max?: number;
  /** An enum's values, in order. */
  readonly values?: readonly string[];
  /** The row another table's column this one refers to (belongs-to); `section` names its section when it has one. */
  readonly references?: { readonly table: string; readonly column: string; readonly section?: string };
  /** Not editable in the forms: the key, timestamps, the soft-delete column, files, and the YAML's `readOnly`. */
  readonly readOnly: boolean;
}

/** One section, as `generated/back-office.ts` emits it. */
export interface SectionConfig {
  /** The resource (`Document`): its tracked model is `ctx.services.models[resource]`. */
  readonly resource: string;
  readonly table: string;
  /** The URL segment under the back office's prefix (`documents`). */
  readonly path: string;
  /** The section's name in the navigation (`Documents`). */
  readonly label: string;
  readonly primaryKey: string;
  /** The soft-delete column, or null. */
  readonly softDelete: string | null;
  /** The resource's policy (its rows' `view`, `update`, `delete`, `restore` actions), or null when it has none. */
  readonly policy: string | null;
  /** Every field shown, in the form's and show page's order. */
  readonly fields: readonly SectionField[];
  /** The list's columns. */
  readonly list: readonly string[];
  /** The fields the list filters on (enums and booleans by value, references by key, others by exact value). */
  readonly filters: readonly string[];
  /** The text fields `?q=` searches (contains, any case). */
  readonly search: readonly string[];
  /** The resource's create and update routes, whose rules the forms apply to the fields those routes bind. */
  readonly routes: { readonly create?: string; readonly update?: string };
}

/** The sections by resource name: `sections` of `generated/back-office.ts`. */
export type SectionTable = Readonly<Record<string, SectionConfig>>;

/** The field of a section by column name, or undefined. */
export function fieldOf(section: SectionConfig, name: string): SectionField | undefined {
  return section.fields.find((f) => f.name === name);
}

/** The fields the create and edit forms show: every field that is not read-only. */
export function formFields(section: SectionConfig): SectionField[] {
  return section.fields.filter((f) => !f.readOnly);
}
