/**
 * The resolved model: every schema file merged, names resolved, defaults
 * applied, rules parsed. Emitters read only this (never the YAML).
 */
import type { CorsPlan, ErrorFormatPlan, FieldPlan, HttpMethod, ListFilterOp, RateLimitPlan } from '../../runtime/routing/route-table.js';
import type { ResultKind } from '../../runtime/results/result.js';
import type { SourcePosition } from '../diagnostics.js';
import type { Policy, RouteAuthorize } from './policy-model.js';

/** Column types of resource fields (SQL mapping in docs/schema-language.md). */
/** `file`: a stored file's reference (`FileRef`, a `json` column; docs/storage.md "Files of rows"). */
export type ColumnKind =
  | 'string'
  | 'text'
  | 'integer'
  | 'bigint'
  | 'number'
  | 'boolean'
  | 'timestamp'
  | 'duration'
  | 'json'
  | 'uuid'
  | 'file';

/** The type of a resource field. */
export interface ColumnType {
  readonly kind: ColumnKind;
  /** A list (`string[]`): column type `T[]` (a PostgreSQL array). */
  readonly array: boolean;
  readonly nullable: boolean;
  /** `max` of a `string` field (characters): column type `string(max)`. */
  readonly max?: number;
  /** The values of an enum (YAML `type: enum`; kind `string`), in YAML order. */
  readonly values?: readonly string[];
}

/** A JSON value (defaults, snapshot). */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * Default of a column: a literal in the column's stored form (durations in
 * milliseconds, timestamps as RFC 3339 text), `now` for timestamps, or a
 * random UUID for generated `uuid` columns.
 */
export type ColumnDefault =
  | { readonly kind: 'value'; readonly value: JsonValue }
  | { readonly kind: 'now' }
  | { readonly kind: 'randomUuid' };

/** `ON DELETE` action of a foreign key. */
export type OnDelete = 'cascade' | 'restrict' | 'set null' | 'no action';

/** A foreign key of a field. */
export interface FieldReference {
  readonly table: string;
  readonly column: string;
  readonly onDelete: OnDelete;
}

/** One field (column) of a resource. */
export interface ResourceField {
  /** Column name. */
  readonly name: string;
  readonly type: ColumnType;
  readonly primaryKey: boolean;
  /** Identity column (integer, bigint). Generated UUIDs have `default: { kind: 'randomUuid' }` instead. */
  readonly identity: boolean;
  readonly default?: ColumnDefault;
  /** Kept out of JSON output. */
  readonly hidden: boolean;
  /** JSON member name. */
  readonly json: string;
  /** Omitted from JSON when null, `''` or `[]`. */
  readonly omitEmpty: boolean;
  readonly references?: FieldReference;
  readonly description?: string;
  /** The column's previous name (YAML `renamedFrom`) and where it is written. */
  readonly renamedFrom?: RenamedFrom;
  /** Where the field is declared (for implicit timestamp fields: the resource's `timestamps`/`softDelete` key). */
  readonly origin: SourcePosition;
}

/** A `renamedFrom:` of a field (a column name) or a resource (a table name). */
export interface RenamedFrom {
  readonly name: string;
  /** Position of the `renamedFrom` value (for diagnostics). */
  readonly origin: SourcePosition;
}

/** An index of a table (field-level `unique` included). */
export interface ResourceIndex {
  readonly name: string;
  readonly columns: readonly string[];
  readonly unique: boolean;
  /** Only rows not soft-deleted: `WHERE deleted_at IS NULL`. */
  readonly live: boolean;
  /**
   * How a `live` index is made on an engine without partial indexes (MySQL,
   * MariaDB), as the schema opts in (`unique: { among: live, emulate: generated-column }`):
   * a generated column holding the value on live rows, uniquely indexed. Absent: not emulated.
   */
  readonly emulate?: 'generated-column';
  /** Where the index's `unique` option is written (for diagnostics). */
  readonly origin?: SourcePosition;
}

/** Audit options carried for the audit emitter (a later issue). */
export interface AuditOptions {
  readonly track: boolean;
  readonly except: readonly string[];
  readonly redact: readonly string[];
  readonly reveal: readonly string[];
}

/**
 * A section of the back office (YAML `backOffice:`; docs/back-office.md),
 * with the YAML's overrides resolved to columns.
 */
export interface BackOfficeSection {
  /** The section's name in the navigation. */
  readonly label: string;
  /** Labels by column, as written (the others are made from the column names). */
  readonly labels: Readonly<Record<string, string>>;
  /** The fields shown, in order. */
  readonly fields: readonly string[];
  readonly list: readonly string[];
  readonly filters: readonly string[];
  readonly search: readonly string[];
  /** The columns the YAML makes read-only (the key, timestamps, files and lists always are). */
  readonly readOnly: readonly string[];
}

/** A resource: one table, its row and JSON shapes. */
export interface Resource {
  /** PascalCase name, e.g. `Note`. */
  readonly name: string;
  readonly table: string;
  readonly description?: string;
  /** Declared fields in YAML order, then `created_at`, `updated_at` (timestamps) and `deleted_at` (softDelete). */
  readonly fields: readonly ResourceField[];
  readonly timestamps: boolean;
  readonly softDelete: boolean;
  /** Indexes sorted by name. */
  readonly indexes: readonly ResourceIndex[];
  readonly audit: AuditOptions | null;
  /** Its back-office section (YAML `backOffice:`), or null when it has none. */
  readonly backOffice?: BackOfficeSection | null;
  /** Column name of the primary key, or null. */
  readonly primaryKey: string | null;
  /** The table's previous name (YAML `renamedFrom`). */
  readonly renamedFrom?: RenamedFrom;
  /** Many-to-many relations through join resources (YAML `relations:`), in YAML order; absent: none. */
  readonly relations?: readonly Relation[];
  /** Fields read from a relation (YAML `computed:`), in YAML order; absent: none. */
  readonly computed?: readonly ComputedField[];
  readonly origin: SourcePosition;
}

/**
 * A many-to-many relation (docs/schema-language.md "Many-to-many
 * relations"): the rows of `resource` whose `key` a row of the join table
 * holds in `to`, for the join rows whose `from` holds this row's `ownerKey`.
 */
export interface Relation {
  readonly name: string;
  /** The join resource and its table. */
  readonly through: string;
  readonly joinTable: string;
  /** The join's column holding this resource's `ownerKey`. */
  readonly from: string;
  readonly ownerKey: string;
  /** The join's column holding the related resource's `key`. */
  readonly to: string;
  readonly resource: string;
  readonly table: string;
  readonly key: string;
  readonly description?: string;
  readonly origin: SourcePosition;
}

/** A computed field (docs/schema-language.md "Computed fields"): a count of a relation, or whether the signed-in user is in it. */
export interface ComputedField {
  readonly name: string;
  readonly kind: 'count' | 'viewerIn';
  /** The many-to-many relation it reads. */
  readonly relation: string;
  readonly description?: string;
  readonly origin: SourcePosition;
}

/** A route group. */
export interface Group {
  readonly name: string;
  readonly description?: string;
  readonly middleware: readonly string[];
  /** Cross-origin access to the group's routes, or absent. */
  readonly cors?: CorsPlan;
  /** The limit of the group's routes (a route may give its own, or `false`), or absent. */
  readonly rateLimit?: RateLimitPlan;
  /** The largest body of the group's routes in bytes (a route may give its own), or absent. */
  readonly bodyLimit?: number;
  /** The token middleware's `Authorization` scheme (YAML `token: { scheme }`), or absent: the app's default. */
  readonly tokenScheme?: string;
  /** Whether its routes are MCP tools (YAML `mcp:`), or absent: not unless a route says so. */
  readonly mcp?: boolean;
  /** The error format of its routes (YAML `errors:`), or absent: problem details. */
  readonly errorFormat?: ErrorFormatPlan;
  readonly origin: SourcePosition;
}

/** An input field: the runtime's binding plan plus what the emitters need. */
export interface InputField extends FieldPlan {
  /** Has a `required` rule: present in the validator's `required` list. */
  readonly required: boolean;
  readonly description?: string;
  /** The values of an enum field (YAML `type: enum`; bound as `string`, checked by the implied `enum` rule). */
  readonly values?: readonly string[];
  /** The fields of an `object` field (docs/schema-language.md "Nested input"), bound from its JSON members. */
  readonly fields?: readonly InputField[];
}

/** A route. */
export interface Route {
  readonly name: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** `{param}` names of the path, in order. */
  readonly pathParams: readonly string[];
  readonly group: string | null;
  readonly middleware: readonly string[];
  /** Abilities a bearer token needs (YAML `abilities:`); empty when none. */
  readonly abilities: readonly string[];
  /** Served as an MCP tool (YAML `mcp:` of the route, else of its group; docs/mcp.md). */
  readonly mcp: boolean;
  readonly summary?: string;
  readonly description?: string;
  /** Client-error statuses the handler answers itself (YAML `errors:`), by status, ascending; empty when none. */
  readonly errors: readonly { readonly status: number; readonly description: string }[];
  readonly input: readonly InputField[];
  /** A resource output (`Note`, `Note[]`), or null. */
  readonly output: { readonly resource: string; readonly array: boolean } | null;
  /** Any other output (a shape, an inline object, a list of them, a scalar; docs/schema-language.md "Output shapes"), or null. */
  readonly shape: OutputShape | null;
  readonly result: ResultKind;
  /** The route's limit (its own, else its group's), or null. */
  readonly rateLimit: RateLimitPlan | null;
  /** The largest body in bytes (YAML `bodyLimit:` of the route, else its group's), or null: implied by the input at run time. */
  readonly bodyLimit: number | null;
  /** Its group's CORS, or null. */
  readonly cors: CorsPlan | null;
  /** Password confirmation window in ms (YAML `confirmPassword: 15m`), `true` for the app's setting, or null. */
  readonly confirmPassword: number | true | null;
  /** A list route (YAML `list:`), or null. Its `limit`, `cursor`, `sort` and filter fields are in `input`. */
  readonly list: RouteList | null;
  /** Relations expanded in every output row (YAML `include:`); empty when none. */
  readonly include: readonly Include[];
  /** The policy action it needs (YAML `authorize:`, or implied by its kind), or null. */
  readonly authorize: RouteAuthorize | null;
  /** Its group's token scheme (YAML `groups.<name>.token.scheme`), or null: the app's default. */
  readonly tokenScheme: string | null;
  /** Its group's error format (YAML `groups.<name>.errors`), or null: problem details. */
  readonly errorFormat: ErrorFormatPlan | null;
  readonly origin: SourcePosition;
}

/** A list route's pages (docs/schema-language.md "List routes"). */
export interface RouteList {
  /** The resource listed (also the route's `output`, as a list). */
  readonly resource: string;
  /** Sort keys: the client's name (the field's JSON name) and the column. */
  readonly sort: readonly { readonly name: string; readonly column: string }[];
  /** The order without `sort=`, as the client writes it (`-created_at`). */
  readonly defaultSort: string;
  /** Filter parameters, each bound as the input field `key`. */
  readonly filters: readonly RouteListFilter[];
  /** Rows per page without `limit=`; the largest `limit=`. */
  readonly limit: number;
  readonly maxLimit: number;
  /** `cursor` (`{ data, next }`) or `offset` (`limit`/`offset`, `{ data, total }`; docs/schema-language.md "Offset lists"). */
  readonly paging: 'cursor' | 'offset';
}

/** A filter of a list: the input field `key`, read from the query parameter `param`, compares `column` with `op`. */
export interface RouteListFilter {
  readonly key: string;
  readonly param: string;
  /** The listed resource's column, or with `through` the related resource's. */
  readonly column: string;
  readonly op: ListFilterOp;
  /** A filter through a relation: rows with at least one related row matching. */
  readonly through?: FilterThrough;
}

/** The relation a filter goes through: belongs-to (`column` of the row → `key` of `table`) or many-to-many (`join`). */
export interface FilterThrough {
  readonly resource: string;
  readonly table: string;
  readonly key: string;
  /** belongs-to: the listed row's column; many-to-many: the listed row's key the join's `from` holds. */
  readonly column: string;
  readonly join?: { readonly table: string; readonly from: string; readonly to: string };
}

/**
 * An included path (YAML `include:`; docs/schema-language.md "Included
 * paths and batch loading"):
 * - `one` (belongs-to): `name` (`owner`) holds the `resource` row whose `key` equals the row's `column`;
 * - `many`: `name` holds the `resource` rows linked `through` the join (its `from` holds the row's `column`, its `to` their `key`);
 * - `count` / `viewerIn`: a computed field of the row, read from the join `through` (a number / a boolean).
 */
export interface Include {
  readonly name: string;
  readonly kind: 'one' | 'many' | 'count' | 'viewerIn';
  readonly column: string;
  /** The related resource (for a computed field: its relation's). */
  readonly resource: string;
  readonly table: string;
  readonly key: string;
  /** The column is nullable (the member may be null). */
  readonly nullable: boolean;
  readonly through?: { readonly table: string; readonly from: string; readonly to: string };
  /** Paths of the related rows (`author.following`); empty for none and for computed fields. */
  readonly include: readonly Include[];
  /** The relation's or computed field's `description` (OpenAPI). */
  readonly description?: string;
}

/** Title and version of the API. */
export interface ApiInfo {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
}

/** The whole resolved schema. Lists keep file order (files sorted by name), then YAML order. */
export interface Model {
  readonly info: ApiInfo;
  readonly groups: readonly Group[];
  readonly resources: readonly Resource[];
  readonly routes: readonly Route[];
  /** Authorization policies (YAML `policies:`; docs/authorization.md), in file order. */
  readonly policies: readonly Policy[];
  /** Named output shapes (YAML `shapes:`), in file order. */
  readonly shapes: readonly Shape[];
}

/** The scalar member types of a shape (`datetime`: a `Date` written as RFC 3339 text; `json`: any JSON value). */
export type ShapeScalar = 'string' | 'integer' | 'number' | 'boolean' | 'datetime' | 'json';

/** A member type of an output shape (docs/schema-language.md "Member types"). */
export type ShapeType =
  | { readonly kind: 'scalar'; readonly scalar: ShapeScalar }
  | { readonly kind: 'resource'; readonly name: string }
  | { readonly kind: 'shape'; readonly name: string }
  | { readonly kind: 'array'; readonly items: ShapeType }
  | { readonly kind: 'object'; readonly members: readonly ShapeMember[] };

/** A member of a shape or inline object. */
export interface ShapeMember {
  /** The JSON member name (and the property of the handler's value). */
  readonly name: string;
  readonly type: ShapeType;
  /** `null` allowed. */
  readonly nullable: boolean;
  /** May be absent: written only when the value has it (not `undefined`). */
  readonly optional: boolean;
  readonly description?: string;
}

/** A route's output other than a resource: a type, maybe nullable. */
export interface OutputShape {
  readonly type: ShapeType;
  readonly nullable: boolean;
  readonly description?: string;
}

/** A named shape (YAML `shapes.<Name>`). */
export interface Shape {
  readonly name: string;
  readonly description?: string;
  /** A projection: the resource and the column names of the fields it keeps (resource order), or null. */
  readonly from: { readonly resource: string; readonly fields: readonly string[] } | null;
  /** Members (added after a projection's fields), in YAML order. */
  readonly members: readonly ShapeMember[];
  readonly origin: SourcePosition;
}
