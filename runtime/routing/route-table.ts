/**
 * The shape of the route table that `bindery generate` emits into
 * `generated/routes.ts` and that the runtime registers on Fastify.
 *
 * This file is the contract between the generator and the runtime: the
 * generator must emit values of these types, the runtime must accept nothing
 * else. It implements the binding plan of docs/spec.md 4.5.
 */

import type { AuthorizePlan } from './policy-plan.js';
import type { ColumnTypeText } from '../db/column-type.js';

/** HTTP methods a route may declare. HEAD is served by GET routes. */
/** The result a route declares in the YAML `result:` key. */
export type ResultKind = 'ok' | 'created' | 'noContent' | 'redirect' | 'page' | 'text' | 'stream' | 'custom';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/**
 * Scalar kind of a bound input field (docs/spec.md 4.5 conversions).
 *
 * - `string`: any text; from a string source as is.
 * - `integer`: a safe integer (`bigint` fields of the YAML bind as `integer`).
 * - `number`: a finite IEEE-754 double.
 * - `boolean`: JSON `true`/`false`; from text `true`/`false`/`1`/`0`/`on`/`off`/`yes`/`no` (any case).
 * - `duration`: milliseconds (number); from text like `90s`, `15m`, `1h30m`, `250ms` or ISO 8601 `PT1H30M`; from JSON the same text, or a number of milliseconds.
 * - `timestamp`: a `Date`; from an RFC 3339 date-time string.
 * - `file`: an uploaded file ({@link UploadedFile}); only from multipart form fields.
 * - `json`: any JSON value, unconverted (body only).
 * - `object`: a JSON object whose members are bound by the field's own
 *   {@link FieldPlan.fields} (body only; docs/schema-language.md "Nested input").
 */
export type ScalarKind = 'string' | 'integer' | 'number' | 'boolean' | 'duration' | 'timestamp' | 'file' | 'json' | 'object';

/** The full type of a bound field: scalar kind, whether it is a list, whether `null` is a value. */
export interface FieldTypePlan {
  readonly kind: ScalarKind;
  /** A list of `kind` (`string[]` in the YAML). Query and form sources collect repeated values. */
  readonly array: boolean;
  /** `null` is a value (JSON `null`); the pointers of docs/spec.md 4.5. */
  readonly nullable: boolean;
}

/** Where a field's value comes from. `body` covers both the `json` and `form` tags. */
export type FieldSource = 'body' | 'query' | 'path' | 'header';

/** One `validate` rule of a field, parsed at generate time (see `runtime/validation/rules.ts`). */
export interface RuleRef {
  /** Rule name from the catalog, e.g. `max`, `each`. */
  readonly name: string;
  /** Parsed parameters: numbers for size rules, strings for lists, a nested rule for `each`. */
  readonly params: readonly (string | number)[];
  /** For `each`: the rule applied to every item. */
  readonly inner?: RuleRef;
}

/**
 * The binding plan of one input field (docs/spec.md 4.5, "Sources by tag").
 *
 * Body fields (`source: 'body'`) read `json` from a JSON body and `form` from
 * a URL-encoded or multipart body; `form` defaults to `json` when the YAML has
 * no form tag. Query, path and header fields read `name` from their source
 * only; the body cannot set them.
 */
export interface FieldPlan {
  /** Property name in the handler's input object (the YAML key). */
  readonly key: string;
  readonly type: FieldTypePlan;
  readonly source: FieldSource;
  /** JSON member name (body fields that accept JSON). Absent: the field cannot be set from JSON. */
  readonly json?: string;
  /** Form field name (body fields that accept forms). Absent: the field cannot be set from a form. */
  readonly form?: string;
  /** Name in the query string, path template or headers (headers lower-cased). */
  readonly name?: string;
  /** Value used when the field is absent after binding (already in the field's bound type, timestamps as RFC 3339 strings). */
  readonly default?: unknown;
  /** The field's rules in YAML order; rule index = position here. */
  readonly rules: readonly RuleRef[];
  /**
   * Catalog keys of the field's own messages by rule name (the YAML
   * `messages: { required: notes.title_required }`; docs/i18n.md): a failed
   * rule is worded by its key instead of `validation.<rule>`.
   */
  readonly messages?: Readonly<Record<string, string>>;
  /**
   * The fields of an `object` field, bound from the members of its JSON
   * object (each a body field whose `json` is its member name). Absent for
   * other kinds.
   */
  readonly fields?: readonly FieldPlan[];
}

/**
 * A compiled ajv standalone validation function, as emitted by
 * `ajv/dist/standalone` with `allErrors: true`. Property schemas are
 * `{ allOf: [ruleFragment0, ruleFragment1, …] }`, so an error's `schemaPath`
 * `#/properties/<key>/allOf/<ruleIndex>/…` names the failing rule; a
 * top-level `required` error names the field in `params.missingProperty`.
 */
export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: ReadonlyArray<{
    readonly instancePath: string;
    readonly schemaPath: string;
    readonly keyword: string;
    readonly params: Record<string, unknown>;
  }> | null;
}

/**
 * How a route's output becomes JSON: a generated serializer of the row type
 * of its resource, or of its shape (docs/schema-language.md "Output shapes").
 */
export interface OutputPlan {
  /** Resource name in the YAML (e.g. `Note`); absent for a shape output. */
  readonly resource?: string;
  /**
   * The shape of a shape output (`Profile`, or `<Route>Output` for an inline
   * one): `serialize` rebuilds the handler's value with the declared members
   * only. Absent for a resource output.
   */
  readonly shape?: string;
  /** The handler returns a list of rows (of shape values), each through `serialize`. */
  readonly array: boolean;
  /**
   * Row (DB names) → JSON (JSON names, hidden fields dropped, `omitEmpty` applied, timestamps RFC 3339).
   * A method, so its parameter is compared both ways: each generated
   * serializer takes its own resource's row type, and a route table mixes
   * resources (a function-typed property would refuse all but one).
   */
  serialize(row: unknown): unknown;
  /** The policy of the resource (docs/authorization.md): a list of rows the handler returns keeps only those the caller may `view`. */
  readonly policy?: string;
  /**
   * Columns of the resource holding files (`type: file`): each gets its
   * signed URL before the row is serialized (docs/storage.md "Files of
   * rows"). Absent: none.
   */
  readonly files?: readonly string[];
}

/**
 * One route of the generated table.
 *
 * The runtime registers it on Fastify at `path` (with `{param}` turned into
 * `:param`), runs the group's middleware, binds `fields`, runs `validate`
 * (422), then the handler's own `validate`, then the handler, and turns the
 * result into a response by {@link ResultKind}.
 */
export interface RouteDefinition {
  /** Unique route name, e.g. `notes.create`; also the key of the handler. */
  readonly name: string;
  readonly method: HttpMethod;
  /** Path template with `{param}` wildcards, e.g. `/notes/{id}`. */
  readonly path: string;
  /** Group name from the YAML `groups:` map, or `null` for none. */
  readonly group: string | null;
  /** Middleware names the group (then the route) asks for, in order. Resolved by the runtime at boot. */
  readonly middleware: readonly string[];
  /**
   * Abilities a bearer token must carry to call the route (YAML
   * `abilities: [profile:read]`; docs/spec.md 5.5 "An ability check is made per
   * route"). Checked by the `token` middleware: a token without one of them
   * gets 403; a user signed in by session has every ability (and is bound by
   * the route's policy alone, {@link RouteDefinition.authorize}). Absent: none.
   */
  readonly abilities?: readonly string[];
  /** Served as an MCP tool by the `mcp()` step (YAML `mcp: true`; docs/mcp.md). */
  readonly mcp?: boolean;
  /** The result the handler normally returns (documents the success status; see docs/spec.md 4.5 "Handler results"). */
  readonly result: ResultKind;
  /** Input fields in YAML order; this order is the order of `errors` keys in problem details. */
  readonly fields: readonly FieldPlan[];
  /** The route's compiled validator, or `null` when no field has a rule. */
  readonly validate: CompiledValidator | null;
  /** The output resource and its serializer, or `null` (pages, redirects, no content). */
  readonly output: OutputPlan | null;
  /**
   * The schema file the route came from, relative to the project root
   * (`schema/notes.yaml`), or another description for routes made by code
   * (`assets/app.css`). Messages show it with the line and column through
   * `routeOrigin()` (`runtime/routing/route-origin.ts`), which looks them up
   * in the file: the generated table carries no positions, so that comments
   * and key order in the YAML do not change it.
   */
  readonly origin: string;
  /**
   * Largest body this route accepts, in bytes, when lower or higher than
   * `HTTP_MAX_BODY` (larger gets 413). Absent: `HTTP_MAX_BODY`. Set by code
   * (a plugin's manifest), not by the YAML.
   */
  readonly bodyLimit?: number;
  /**
   * The route reads only JSON bodies: a body of a content type bindery has no
   * parser for is 400 (not 415), like any other body that is not JSON. Set by
   * code (a plugin's webhook), not by the YAML.
   */
  readonly jsonOnly?: boolean;
  /**
   * The route reads its `application/octet-stream` body itself: the handler
   * gets the unread stream as `request.body` (a `RawBody`). Set by code (the
   * local disk's direct upload route), not by the YAML.
   */
  readonly rawBody?: boolean;
  /** The route's rate limit (YAML `rateLimit:` of the route or its group). Absent: none. */
  readonly rateLimit?: RateLimitPlan;
  /**
   * Password confirmation ("sudo mode", YAML `confirmPassword: 15m`; docs/auth.md
   * "Password confirmation"): a signed-in user whose last confirmation is
   * older than this many ms is asked for the password again (pages: 303 to
   * the confirm form and back; JSON: 423). `true`: the app's
   * `AUTH_PASSWORD_TIMEOUT`. Enforced by the middleware the
   * `passwordConfirmation()` step provides. Absent: none.
   */
  readonly confirmPassword?: number | true;
  /** Cross-origin access (YAML `cors:` of the route's group). Absent: same-origin only (no CORS headers). */
  readonly cors?: CorsPlan;
  /**
   * A list route (YAML `list:`; docs/schema-language.md "List routes"): the
   * handler returns a {@link ListPage} (from `runList`), answered as
   * `{ data: [...], next }`. Absent: not a list route.
   */
  readonly list?: ListPlan;
  /**
   * Relations expanded in every output row (YAML `include: [owner]`; docs/
   * schema-language.md "Included relations"): read with one query per
   * relation for the whole output, added under their names. Absent: none.
   */
  readonly include?: readonly IncludePlan[];
  /**
   * The policy action the route needs (YAML `authorize:`, or the one its kind
   * implies; docs/authorization.md): checked after binding, before the rules.
   * Absent: no policy.
   */
  readonly authorize?: AuthorizePlan;
  /**
   * The `Authorization` scheme the `token` middleware reads on this route
   * (YAML `groups.<name>.token.scheme`; docs/tokens.md "The scheme of a
   * group"), e.g. `Token`. Absent: the app's default (`Bearer` unless
   * `tokens({ scheme })` says otherwise).
   */
  readonly tokenScheme?: string;
  /**
   * The shape of the route's error responses (YAML `groups.<name>.errors`;
   * docs/errors.md "Error formats"). Absent: problem details.
   */
  readonly errorFormat?: ErrorFormatPlan;
}

/**
 * An error format other than problem details (docs/errors.md "Error formats"):
 * `lists` answers `{ "errors": { "<name>": ["<message>", …] } }`.
 */
export interface ErrorFormatPlan {
  readonly format: 'lists';
  /** `path`: a nested field under its whole client path (`user.email`); `leaf`: under its last name (`email`). */
  readonly keys: 'path' | 'leaf';
  /** The member holding an error that is about no field (401, 404…). */
  readonly other: string;
  /** A rule's sentence by rule name (`required` → `can't be empty`), with `:attribute` and the rule's parameters. */
  readonly messages?: Readonly<Record<string, string>>;
}

/** A sort key of a list route: `sort=<name>` or `sort=-<name>`. */
export interface ListSortPlan {
  /** The client's name: the field's JSON name. */
  readonly name: string;
  readonly column: string;
  /**
   * The column's type, one of bindery's column types (`timestamp`,
   * `string(200)`, `bigint`…; `runtime/db/column-type.ts`, docs/database.md
   * "Column types"): cursor values are read back as it.
   */
  readonly columnType: ColumnTypeText;
}

/** The comparison a list filter makes (a `range` filter of the YAML is its four bounds). */
export type ListFilterOp = 'eq' | 'prefix' | 'contains' | 'gte' | 'gt' | 'lte' | 'lt';

/** One filter parameter of a list route, bound as the input field `key`. */
export interface ListFilterPlan {
  /** The input field holding the value (e.g. `filter_title`). */
  readonly key: string;
  /** The query parameter (e.g. `filter[title]`, `filter[created_at][gte]`). */
  readonly param: string;
  readonly column: string;
  readonly op: ListFilterOp;
  /** Column type of the value compared (`runtime/db/column-type.ts`): the column's, or its item type for `contains` on a list column. */
  readonly columnType: ColumnTypeText;
  /** The column is a list (`contains`: the list holds the value). */
  readonly array: boolean;
  /**
   * A filter through a relation (docs/schema-language.md "Offset lists"):
   * `column` is the related `table`'s; a row passes when a related row
   * matches. belongs-to: the row's `column` holds the related `key`;
   * many-to-many: a `join` row holds the row's `column` in `from` and the
   * related `key` in `to`. Absent: `column` is the listed table's.
   */
  readonly through?: {
    readonly table: string;
    readonly key: string;
    readonly column: string;
    readonly join?: { readonly table: string; readonly from: string; readonly to: string };
  };
}

/**
 * A path added to every output row (YAML `include:`; docs/schema-language.md
 * "Included paths and batch loading"): a belongs-to relation (no `kind`),
 * a many-to-many relation (`many`) or a computed field (`count`, `viewerIn`).
 */
export interface IncludePlan {
  /** The member added to each row (`owner`). */
  readonly name: string;
  /** Absent: belongs-to (one related row or null); `many`: the related rows; `count`: a number; `viewerIn`: a boolean. */
  readonly kind?: 'many' | 'count' | 'viewerIn';
  /** The row's column holding the key (`owner_id`; for the others the key the join's `from` holds). */
  readonly column: string;
  /** The related table and column (`users`, `id`). */
  readonly table: string;
  readonly key: string;
  /** The join of a many-to-many relation or computed field: its table, the column holding the row's key and the one holding the related key. */
  readonly through?: { readonly table: string; readonly from: string; readonly to: string };
  /** Paths of the related rows (`author.following`). Absent: none. */
  readonly include?: readonly IncludePlan[];
  /** The related resource's serializer (relations only); a method, like {@link OutputPlan.serialize}, to take every resource's. */
  serialize?(row: unknown): unknown;
  /** The policy of the related resource: only related rows the caller may `view` are included (others are null). */
  readonly policy?: string;
  /** Columns of the referenced resource holding files (see {@link OutputPlan.files}). Absent: none. */
  readonly files?: readonly string[];
}

/** How a list route reads its pages (see {@link RouteDefinition.list}). */
export interface ListPlan {
  readonly table: string;
  /** The primary key column: the tie-breaker of every order. */
  readonly primaryKey: string;
  /** Its column type (`bigint`, `uuid`…; `runtime/db/column-type.ts`). */
  readonly primaryKeyColumnType: ColumnTypeText;
  /** Soft-deleted rows (`deleted_at` set) are left out. */
  readonly softDelete: boolean;
  readonly sort: readonly ListSortPlan[];
  readonly filters: readonly ListFilterPlan[];
  /** `offset`: pages by `limit` and `offset`, answered `{ data, total }` (docs/schema-language.md "Offset lists"). Absent: cursor pages. */
  readonly paging?: 'offset';
}

/**
 * A route's rate limit (YAML `rateLimit: "5/minute"`; docs/http.md "Rate
 * limits"): at most `limit` requests per fixed window of `windowMs`, counted
 * per client in the cache (shared by every instance with the database driver).
 */
export interface RateLimitPlan {
  /** Requests allowed per window (at least 1). */
  readonly limit: number;
  /** The window, ms. */
  readonly windowMs: number;
  /** Who is counted: the client address; the signed-in user (else the address); the bearer token (else the address). */
  readonly by: 'ip' | 'user' | 'token';
}

/**
 * Cross-origin access to a route (YAML `groups.<name>.cors`; docs/http.md
 * "CORS"). An origin not listed gets no CORS headers at all.
 */
export interface CorsPlan {
  /** Allowed origins (`https://app.example.com`), or `['*']` for any (never with `credentials`). */
  readonly origins: readonly string[];
  /** `Access-Control-Allow-Credentials: true`: the browser may send cookies. */
  readonly credentials: boolean;
  /** `Access-Control-Max-Age` of preflight answers, seconds. */
  readonly maxAge: number;
  /** `Access-Control-Allow-Headers`: request headers allowed besides the safelisted ones. */
  readonly headers: readonly string[];
  /** `Access-Control-Expose-Headers`: response headers a page's script may read. */
  readonly exposeHeaders: readonly string[];
}

/** The generated route table: every route, in YAML order (files sorted by name). */
export type RouteTable = readonly RouteDefinition[];

/** An uploaded file bound from a multipart form field (docs/spec.md 4.5; docs/storage.md "Uploads"). */
export type { UploadedFile } from '../storage/uploaded-file.js';
