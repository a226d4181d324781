/**
 * The Kysely instance type for code that serves every app's schema.
 */
import type { Kysely } from 'kysely';

/**
 * A Kysely instance over any application's tables: what the framework's own
 * tables (sessions, cache, outbox, audit log, jobs) and the app's tracked
 * tables are reached through, since the table map is each app's own
 * generated `Database` type.
 */
// biome-ignore lint/suspicious/noExplicitAny: Kysely's table map is the app's own type; `Kysely<unknown>` and `Kysely<{}>` refuse every table name and a typed app's `Kysely<Database>` is not assignable to them, so code serving every schema takes `any` here, once.
export type AnyKysely = Kysely<any>;

/**
 * The table map of a caller without a generated `Database` type: the default
 * of the framework's generic database helpers (`connectDatabase`,
 * `audit.track`, the test kit), under which any table and column name is accepted.
 */
// biome-ignore lint/suspicious/noExplicitAny: Kysely's own "untyped" table map; `unknown` has no keys, so it would refuse every table name where the untyped default should accept them.
export type UntypedTables = any;
