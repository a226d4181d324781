import { describe, expect, it } from 'vitest';
import { columnTypeOfMysql, mysqlType } from '../../../../../runtime/db/engines/mysql/column-types.js';

describe('mysqlType | bindery column types as MySQL types, and back', () => {
  it.each([
    ['string(200)', 'VARCHAR(200)', 'string(200)'],
    ['string', 'LONGTEXT', 'string'],
    ['text', 'LONGTEXT', 'string'],
    ['integer', 'INT', 'integer'],
    ['bigint', 'BIGINT', 'bigint'],
    ['float', 'DOUBLE', 'float'],
    ['boolean', 'BOOLEAN', undefined],
    ['timestamp', 'DATETIME(6)', 'timestamp'],
    ['json', 'JSON', 'json'],
    ['uuid', 'CHAR(36)', 'uuid'],
    ['string(20)[]', 'JSON', 'json'],
  ])('%s is %s', (type, mysql, back) => {
    expect(mysqlType(type)).toBe(mysql);
    expect(columnTypeOfMysql(mysql)).toBe(back);
  });

  it('reads the types as information_schema prints them (lower case, display widths)', () => {
    expect(columnTypeOfMysql('tinyint(1)')).toBe('boolean');
    expect(columnTypeOfMysql('int(11)')).toBe('integer');
    expect(columnTypeOfMysql('bigint(20)')).toBe('bigint');
    expect(columnTypeOfMysql('datetime(6)')).toBe('timestamp');
    expect(columnTypeOfMysql('varchar(50)')).toBe('string(50)');
    expect(columnTypeOfMysql('mediumblob')).toBeUndefined();
  });

  it('refuses what is not a column type', () => {
    expect(() => mysqlType('varchar(20)')).toThrow(/"varchar\(20\)" is not a bindery column type/);
  });
});
