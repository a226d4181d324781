/**
 * bindery's column types as MySQL and MariaDB types (docs/database.md "MySQL
 * and MariaDB"): what a table declares and what the runtime reads back. Pure,
 * so the generator's migration emitter may read it too.
 *
 * | column type | MySQL, MariaDB |
 * |---|---|
 * | `string(n)` | `VARCHAR(n)` |
 * | `string`, `text` | `LONGTEXT` |
 * | `integer`, `bigint` | `INT`, `BIGINT` |
 * | `float` | `DOUBLE` |
 * | `boolean` | `BOOLEAN` (`TINYINT(1)`, read back as `true`/`false`) |
 * | `timestamp` | `DATETIME(6)`, holding UTC (the session's `time_zone` is `+00:00`) |
 * | `json` | `JSON` (on MariaDB a `LONGTEXT` checked by `JSON_VALID`) |
 * | `uuid` | `CHAR(36)` |
 * | `T[]` | `JSON`: a JSON array of the item type (no native arrays) |
 *
 * Text columns take the database's character set and collation, which the
 * boot requires to be `utf8mb4` (`utf8mb4_bin` recommended: byte-exact, as
 * PostgreSQL compares).
 */
import { parseColumnType, type ColumnBase, type ColumnTypeText } from '../../column-type.js';

const BASE: Readonly<Record<ColumnBase, string>> = {
  string: 'LONGTEXT',
  text: 'LONGTEXT',
  integer: 'INT',
  bigint: 'BIGINT',
  float: 'DOUBLE',
  boolean: 'BOOLEAN',
  timestamp: 'DATETIME(6)',
  json: 'JSON',
  uuid: 'CHAR(36)',
};

/**
 * The MySQL type of a column type: `string(200)` → `VARCHAR(200)`, `timestamp` → `DATETIME(6)`, `string[]` → `JSON`.
 * @throws {TypeError} when `type` is not a column type (a generated file older than this bindery: regenerate it).
 */
export function mysqlType(type: ColumnTypeText): string {
  const parsed = parseColumnType(type);
  if (parsed === undefined)
    throw new TypeError(`"${type}" is not a bindery column type; run "bindery generate" to rewrite the generated files.`);
  if (parsed.array) return 'JSON';
  return parsed.base === 'string' && parsed.max !== undefined ? `VARCHAR(${parsed.max})` : BASE[parsed.base];
}

/** MySQL type names (as `information_schema.COLUMNS.COLUMN_TYPE` gives them, lower case) back to column types. */
const FROM_MYSQL: ReadonlyMap<string, ColumnTypeText> = new Map([
  ['longtext', 'string'],
  ['int', 'integer'],
  ['bigint', 'bigint'],
  ['double', 'float'],
  ['tinyint(1)', 'boolean'],
  ['datetime(6)', 'timestamp'],
  ['json', 'json'],
  ['char(36)', 'uuid'],
]);

/**
 * The column type of a MySQL column type as bindery writes it (`varchar(200)`, `datetime(6)`, `int(11)`).
 * A JSON column gives `json`: lists are JSON too, and MariaDB reports its JSON columns as `longtext`, so
 * neither can be told from the type alone.
 * @returns `undefined` for a type bindery never writes.
 */
export function columnTypeOfMysql(type: string): ColumnTypeText | undefined {
  const lower = type.trim().toLowerCase();
  const varchar = /^varchar\((\d+)\)$/.exec(lower);
  if (varchar) return `string(${varchar[1]})`;
  // Display widths (`int(11)`, `bigint(20)`) are what MySQL 5.7 and MariaDB print; they change nothing.
  const integer = /^(int|bigint)\(\d+\)$/.exec(lower);
  return FROM_MYSQL.get(integer ? integer[1]! : lower);
}
