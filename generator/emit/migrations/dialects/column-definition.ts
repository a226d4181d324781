/**
 * A column definition read back from a migration file, the part both
 * dialects share: each dialect's pattern matches `name type[ identity][ NOT
 * NULL][ DEFAULT expr][ PRIMARY KEY]` in groups 1 to 6, in that order, and
 * reads the type and the default in its own words.
 */
import type { ColumnTypeText } from '../../../../runtime/db/column-type.js';
import type { ColumnSnapshot, DefaultSnapshot } from '../snapshot-types.js';

/**
 * The column of match `m`.
 * @param name the column's name, unquoted (group 1).
 * @param type its type (read from group 2), or `undefined` when the dialect cannot read it.
 * @param readDefault reads the DEFAULT text (group 5); `undefined` for text it does not know.
 * @returns the column, or `undefined` when its type or default is unreadable.
 */
export function columnOfDefinition(
  m: RegExpExecArray,
  name: string,
  type: ColumnTypeText | undefined,
  readDefault: (text: string, type: ColumnTypeText) => DefaultSnapshot | undefined,
): { name: string; snapshot: ColumnSnapshot } | undefined {
  if (type === undefined) return undefined;
  const value = m[5] === undefined ? undefined : readDefault(m[5], type);
  if (m[5] !== undefined && value === undefined) return undefined;
  const identity = m[3] !== undefined;
  const primaryKey = m[6] !== undefined;
  return {
    name,
    snapshot: {
      type,
      nullable: !(m[4] !== undefined || identity || primaryKey),
      ...(value !== undefined ? { default: value } : {}),
      ...(identity ? { identity: true } : {}),
      ...(primaryKey ? { primaryKey: true } : {}),
    },
  };
}
