/**
 * Tables a policy may govern besides the schema's resources: those the
 * framework's setup steps create (docs/authorization.md "Policies of the
 * framework's tables"). Their columns are listed here so rules are checked
 * like a resource's; `test/generator/policy-tables.test.ts` keeps the list
 * in step with the migrations that create them.
 */
import type { ColumnKind } from './model.js';

/** A framework table a policy may name with `table:`. */
export interface FrameworkTable {
  /** What a row is called in messages. */
  readonly label: string;
  readonly primaryKey: string;
  /** Columns by name, with their kind (arrays and JSON are listed as `json`: rules cannot compare them). */
  readonly columns: Readonly<Record<string, ColumnKind>>;
  /** Columns a row can be found by (unique, the key included). */
  readonly unique: readonly string[];
  /** The row type and the database type generated code imports for it, from `<runtime>/<entry>`. */
  readonly types: { readonly entry: string; readonly row: string; readonly database: string };
}

/** By table name. */
export const FRAMEWORK_TABLES: Readonly<Record<string, FrameworkTable>> = {
  api_tokens: {
    label: 'API token',
    primaryKey: 'id',
    columns: {
      id: 'bigint',
      user_id: 'string',
      name: 'string',
      token_hash: 'string',
      abilities: 'json',
      last_used_at: 'timestamp',
      expires_at: 'timestamp',
      created_at: 'timestamp',
      updated_at: 'timestamp',
    },
    unique: ['id'],
    types: { entry: 'auth/tokens', row: 'ApiTokenRow', database: 'ApiTokensDatabase' },
  },
};
