/**
 * The TypeScript shape of one schema file as written in YAML, after it has
 * passed `bindery.schema.json` (the two must agree; see
 * docs/schema-language.md). The model stage (`generator/model/`) reads these
 * shapes and resolves them into the typed model.
 */

/** Top level of a schema file. */
export interface RawSchemaFile {
  readonly info?: RawInfo;
  readonly groups?: Readonly<Record<string, RawGroup>>;
  readonly resources?: Readonly<Record<string, RawResource>>;
  readonly routes?: Readonly<Record<string, RawRoute>>;
  readonly shapes?: Readonly<Record<string, RawShape>>;
  /** Authorization policies by name (docs/authorization.md). */
  readonly policies?: Readonly<Record<string, RawPolicy>>;
}

/** `info:` — title and version of the API (OpenAPI `info`). */
export interface RawInfo {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
}

/** `groups.<name>` — the middleware every route of the group runs, in order. */
export interface RawGroup {
  readonly description?: string;
  readonly middleware: readonly string[];
  /** Cross-origin access to the group's routes (docs/http.md "CORS"). */
  readonly cors?: RawCors;
  /** The limit of every route of the group, unless the route gives its own. */
  readonly rateLimit?: RawRateLimit;
  /** The largest body of every route of the group (`64KiB`, bytes), unless the route gives its own. */
  readonly bodyLimit?: string | number;
  /** The token middleware's `Authorization` scheme for the group (docs/tokens.md). */
  readonly token?: { readonly scheme: string };
  /** Serve every route of the group as an MCP tool (docs/mcp.md), unless the route says `mcp: false`. */
  readonly mcp?: boolean;
  /** The group's error format (docs/errors.md "Error formats"). */
  readonly errors?: RawErrorFormat;
}

/** `groups.<name>.errors`: a format name, or the long form. */
export type RawErrorFormat =
  | string
  | {
      readonly format: string;
      readonly keys?: string;
      readonly other?: string;
      readonly messages?: Readonly<Record<string, string>>;
    };

/** `groups.<name>.cors`. */
export interface RawCors {
  readonly origins: readonly string[];
  readonly credentials?: boolean;
  /** Seconds. */
  readonly maxAge?: number;
  readonly headers?: readonly string[];
  readonly exposeHeaders?: readonly string[];
}

/** `rateLimit:` of a group or route: `"5/minute"`, `{ rate: "5/minute", by: user }`, or `false` (a route opting out of its group's). */
export type RawRateLimit = string | boolean | { readonly rate: string; readonly by?: 'ip' | 'user' | 'token' };

/**
 * `true`, `false`, `live` (unique among rows that are not soft-deleted), or
 * `{ among: live, emulate: generated-column }`: `live`, emulated on MySQL and
 * MariaDB (no partial indexes) by a generated column.
 */
export type RawUnique = boolean | 'live' | { readonly among: 'live'; readonly emulate?: 'generated-column' };

/** `resources.<Name>` — one table. */
export interface RawResource {
  readonly description?: string;
  readonly table: string;
  readonly fields: Readonly<Record<string, RawResourceField>>;
  readonly timestamps?: boolean;
  readonly softDelete?: boolean;
  readonly indexes?: readonly RawIndex[];
  readonly audit?: RawAudit;
  /** A section of the back office (docs/back-office.md "Customising in YAML"): `true`, `false`, or its overrides. */
  readonly backOffice?: boolean | RawBackOffice;
  /** The table's previous name: the migration renames that table (docs/schema-language.md "Renames"). */
  readonly renamedFrom?: string;
  /** Many-to-many relations through join resources (docs/schema-language.md "Many-to-many relations"). */
  readonly relations?: Readonly<Record<string, RawRelation>>;
  /** Fields read from a relation (docs/schema-language.md "Computed fields"). */
  readonly computed?: Readonly<Record<string, RawComputed>>;
}

/** `resources.<Name>.relations.<name>`. */
export interface RawRelation {
  readonly through: string;
  readonly from?: string;
  readonly to?: string;
  readonly description?: string;
}

/** `resources.<Name>.computed.<name>`: one of `count` or `viewerIn`. */
export interface RawComputed {
  readonly count?: string;
  readonly viewerIn?: string;
  readonly description?: string;
}

/** `ON DELETE` action of a foreign key, as written. */
export type RawOnDelete = 'cascade' | 'restrict' | 'set null' | 'no action';

/** `resources.<Name>.fields.<column>`. */
export interface RawResourceField {
  readonly type: string;
  readonly description?: string;
  readonly primaryKey?: boolean;
  readonly generated?: boolean;
  readonly nullable?: boolean;
  readonly default?: unknown;
  readonly hidden?: boolean;
  readonly json?: string;
  readonly omitEmpty?: boolean;
  readonly max?: number;
  readonly unique?: RawUnique;
  readonly references?: string | { readonly to: string; readonly onDelete?: RawOnDelete };
  /** The values of a `type: enum` (or `"enum[]"`) field. */
  readonly values?: readonly string[];
  /** The column's previous name: the migration renames that column (docs/schema-language.md "Renames"). */
  readonly renamedFrom?: string;
}

/** `resources.<Name>.indexes[i]`. */
export interface RawIndex {
  readonly name?: string;
  readonly columns: readonly string[];
  readonly unique?: RawUnique;
}

/** `resources.<Name>.audit` — carried into the model for the audit emitter. */
export interface RawAudit {
  readonly track?: boolean;
  readonly except?: readonly string[];
  readonly redact?: readonly string[];
  readonly reveal?: readonly string[];
}

/** `resources.<Name>.backOffice` as an object: the section's overrides (docs/back-office.md "Customising in YAML"). */
export interface RawBackOffice {
  readonly label?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly list?: readonly string[];
  readonly filters?: readonly string[];
  readonly search?: readonly string[];
  readonly fields?: readonly string[];
  readonly readOnly?: readonly string[];
}

/** `routes.<name>`. */
export interface RawRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  readonly path: string;
  readonly group?: string;
  /** The route's rate limit (overrides the group's). */
  readonly rateLimit?: RawRateLimit;
  /** The largest body the route accepts (`64KiB`, bytes; overrides the group's). */
  readonly bodyLimit?: string | number;
  /** Abilities a bearer token needs for the route (checked by the `token` middleware). */
  readonly abilities?: readonly string[];
  /** Serve the route as an MCP tool (docs/mcp.md); overrides the group's `mcp`. */
  readonly mcp?: boolean;
  /** Password confirmation ("sudo mode"): a window like `15m`, or `true` for the app's AUTH_PASSWORD_TIMEOUT. */
  readonly confirmPassword?: string | true;
  readonly summary?: string;
  readonly description?: string;
  /** Client-error statuses the handler answers itself (`409`), each with what it means. */
  readonly errors?: Readonly<Record<string, string>>;
  readonly input?: Readonly<Record<string, RawInputField>>;
  /** The JSON body (docs/schema-language.md "Output shapes"): a type string, an inline object or a member's long form. */
  readonly output?: RawShapeMember;
  readonly result: 'ok' | 'created' | 'noContent' | 'redirect' | 'page' | 'text' | 'stream' | 'custom';
  /** A list route: pages of a resource's rows (docs/schema-language.md "List routes"). */
  readonly list?: RawList;
  /** Relations expanded in every row of the output (`[owner]` for `owner_id`). */
  readonly include?: readonly string[];
  /** The policy action the route needs (`documents.update`), its long form, or `false` for none (docs/authorization.md "Routes"). */
  readonly authorize?: RawAuthorize;
  /** `optional`: without the group's `require` guard; `required`: with it (docs/schema-language.md "Optional authentication"). */
  readonly auth?: 'optional' | 'required';
}

/** `routes.<name>.authorize`. */
export type RawAuthorize =
  | string
  | false
  | {
      readonly action: string;
      /** The input field naming the row, or false for no row. */
      readonly target?: string | false;
      /** The column the field is compared with (default: the field's key). */
      readonly column?: string;
      /** Soft-deleted rows are found too. */
      readonly withDeleted?: boolean;
    };

/** `policies.<name>` — who may do what to the rows of one resource (docs/authorization.md). */
export interface RawPolicy {
  readonly description?: string;
  /** The resource whose rows it governs (default: the one whose table is the policy's name). */
  readonly resource?: string;
  /** A table of the framework instead of a resource (`api_tokens`). */
  readonly table?: string;
  /** Deny as 404 when the caller may not view the row either. */
  readonly hideExistence?: boolean;
  /** Token abilities → the actions each grants (default: `<policy>:<action>` per action). */
  readonly abilities?: Readonly<Record<string, readonly string[]>>;
  readonly actions: Readonly<Record<string, RawPolicyRule>>;
}

/** A YAML policy rule: a word, or an object of conditions (all must hold), or `{ code: true, scope?: true }`. */
export type RawPolicyRule =
  | 'public'
  | 'signedIn'
  | 'nobody'
  | 'code'
  | {
      readonly owner?: string;
      readonly user?: Readonly<Record<string, RawPolicyValue>>;
      readonly row?: Readonly<Record<string, RawPolicyValue>>;
      readonly anyOf?: readonly RawPolicyRule[];
      readonly code?: true;
      readonly scope?: boolean;
    };

/** A value (or list of values) a column is compared with. */
export type RawPolicyValue = string | number | boolean | null | readonly (string | number | boolean | null)[];

/** A binding tag's value: the client name, or `true` for the field's own key. */
export type RawTag = string | true;

/** `routes.<name>.input.<key>`. */
export interface RawInputField {
  readonly type: string;
  readonly description?: string;
  readonly nullable?: boolean;
  readonly default?: unknown;
  readonly json?: RawTag;
  readonly form?: RawTag;
  readonly query?: RawTag;
  readonly path?: RawTag;
  readonly header?: RawTag;
  readonly validate?: readonly string[];
  /** Rule name → catalog message key worded instead of `validation.<rule>` (docs/i18n.md "Validation"). */
  readonly messages?: Readonly<Record<string, string>>;
  /** The values of a `type: enum` (or `"enum[]"`) field. */
  readonly values?: readonly string[];
  /** The fields of a `type: object` field (docs/schema-language.md "Nested input"). */
  readonly fields?: Readonly<Record<string, RawInputField>>;
}

/** A filter operator of a list route (docs/schema-language.md "List routes"). */
export type RawFilterOp = 'eq' | 'prefix' | 'contains' | 'range';

/** A filter's long form: `{ op, through, field, query }`. */
export interface RawFilter {
  readonly op?: RawFilterOp;
  readonly through?: string;
  readonly field?: string;
  readonly query?: string;
}

/** `routes.<name>.list` — the route answers pages of a resource's rows. */
export interface RawList {
  readonly resource: string;
  /** `cursor` (default) or `offset` (docs/schema-language.md "Offset lists"). */
  readonly paging?: 'cursor' | 'offset';
  readonly sort?: readonly string[];
  readonly defaultSort?: string;
  readonly filter?: Readonly<Record<string, RawFilterOp | RawFilter>>;
  readonly limit?: number;
  readonly maxLimit?: number;
}

/** A member type: a type name (`string`, `Profile`, `Article[]`) or an inline object (member → member). */
export type RawShapeType = string | { readonly [member: string]: RawShapeMember };

/** A member: its type, or the long form `{ type, nullable, optional, description }` (a map with a `type` key). */
export type RawShapeMember =
  | RawShapeType
  | { readonly type: RawShapeType; readonly nullable?: boolean; readonly optional?: boolean; readonly description?: string };

/** `shapes.<Name>` (docs/schema-language.md "Output shapes"). */
export interface RawShape {
  readonly description?: string;
  /** A projection: the resource whose fields the shape takes. */
  readonly from?: string;
  readonly pick?: readonly string[];
  readonly omit?: readonly string[];
  readonly members?: { readonly [member: string]: RawShapeMember };
}
