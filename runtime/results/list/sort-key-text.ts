/**
 * Whether a cursor's text can be read back as a value of its column type
 * (docs/database.md "Lists and cursors"): a page's cursor keeps the exact
 * text of its last row's sort key and primary key, and the next page reads
 * them back as the column's type. A text that would not read back — a cursor
 * made when the column had another type — is the client's 400, checked here
 * before any statement runs, never the database's error.
 *
 * Accepted: the neutral text every engine writes (`sortKeyText`: instants as
 * `YYYY-MM-DDTHH:MM:SS.ffffffZ`, integers in decimal, strings as they are),
 * and the text of cursors made before it (PostgreSQL's JSON text of the
 * value: instants with an offset such as `+00:00`, fewer fraction digits).
 */
import { parseColumnType, type ColumnTypeText } from '../../db/column-type.js';
import { utcInstantParts } from '../../db/instant-text.js';

/** An instant: date, time, up to 6 fraction digits, `Z` or an offset of hours[, minutes[, seconds]]. */
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:Z|[+-](\d{2})(?:[:][0-5]\d(?:[:][0-5]\d)?)?)$/;
const DECIMAL = /^-?\d{1,20}$/;
const FLOAT = /^(?:-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|NaN|-?Infinity)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const INTEGER_LIMIT = 2n ** 31n;
const BIGINT_LIMIT = 2n ** 63n;

/** Whether `text` reads back as a value of column type `type` on every engine (see the module's comment). */
export function readableSortKey(text: string, type: ColumnTypeText): boolean {
  const parsed = parseColumnType(type);
  if (parsed === undefined || parsed.array) return true;
  switch (parsed.base) {
    case 'timestamp':
      return readableInstant(text);
    case 'integer':
      return DECIMAL.test(text) && inRange(BigInt(text), INTEGER_LIMIT);
    case 'bigint':
      return DECIMAL.test(text) && inRange(BigInt(text), BIGINT_LIMIT);
    case 'float':
      return FLOAT.test(text);
    case 'boolean':
      return text === 'true' || text === 'false';
    case 'uuid':
      return UUID.test(text);
    case 'json':
      return readableJson(text);
    default:
      return true;
  }
}

function inRange(value: bigint, limit: bigint): boolean {
  return value >= -limit && value < limit;
}

function readableInstant(text: string): boolean {
  if (text === 'infinity' || text === '-infinity') return true;
  const m = INSTANT.exec(text);
  if (m === null) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const end = new Date(0);
  end.setUTCFullYear(year, month, 0); // day 0 of the next month: the last of this one (`Date.UTC` would read years < 100 as 19xx)
  const days = end.getUTCDate();
  const offsetHours = m[7] === undefined ? 0 : Number(m[7]);
  return month >= 1 && month <= 12 && day >= 1 && day <= days && hour <= 23 && minute <= 59 && second <= 59 && offsetHours <= 15;
}

function readableJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A readable sort key as the neutral text every engine reads the same: an
 * instant with an offset (a cursor made before, `…+05:30`) as its UTC text
 * ending in `Z`, the fraction kept as written; anything else unchanged.
 * MySQL reads no offset in a timestamp's text, so the list query is given this.
 */
export function neutralSortKey(text: string, type: ColumnTypeText): string {
  if (parseColumnType(type)?.base !== 'timestamp' || text.endsWith('Z')) return text;
  const parts = utcInstantParts(text);
  return parts === undefined ? text : `${parts.day}T${parts.time}${parts.fraction}Z`;
}
