import { describe, expect, it } from 'vitest';
import { splitMysqlStatements, statementsChecksum } from '../../../../../runtime/db/migrator/strategies/statements.mysql.js';

const split = (sql: string) => splitMysqlStatements(sql).map((s) => [s.line, s.text]);

describe('splitMysqlStatements | a statement ends with ";" at the end of a line', () => {
  it('splits at each line-ending ";", numbering the statements and giving the line each starts on', () => {
    const statements = splitMysqlStatements('CREATE TABLE a (\n  id INT\n);\n\nINSERT INTO a VALUES (1);\n');
    expect(statements).toEqual([
      { index: 1, line: 1, text: 'CREATE TABLE a (\n  id INT\n)' },
      { index: 2, line: 5, text: 'INSERT INTO a VALUES (1)' },
    ]);
  });

  it('comments and blank lines between statements belong to none; a comment after the ";" still ends it', () => {
    const sql = [
      '-- the notes table',
      '# a MySQL comment',
      '/* a block',
      '   comment; with a semicolon; */',
      'CREATE TABLE notes (id INT); -- trailing comment',
      'ALTER TABLE notes ADD COLUMN title TEXT; /* short */  ',
      '',
      '-- the end;',
    ].join('\n');
    expect(split(sql)).toEqual([
      [5, 'CREATE TABLE notes (id INT)'],
      [6, 'ALTER TABLE notes ADD COLUMN title TEXT'],
    ]);
  });

  it('a ";" inside a quoted string never ends a statement, on one line or across lines', () => {
    const sql = [
      'INSERT INTO t VALUES (\'a;\', "b;", `c;`);',
      "INSERT INTO t VALUES ('it''s;', 'back\\'slash;');",
      "INSERT INTO t VALUES ('two",
      'lines;',
      "done');",
    ].join('\n');
    expect(split(sql)).toEqual([
      [1, 'INSERT INTO t VALUES (\'a;\', "b;", `c;`)'],
      [2, "INSERT INTO t VALUES ('it''s;', 'back\\'slash;')"],
      [3, "INSERT INTO t VALUES ('two\nlines;\ndone')"],
    ]);
  });

  it('a ";" with more SQL after it on its line does not end the statement (a compound statement on one line)', () => {
    const sql = 'CREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW BEGIN SET NEW.x = 1; SET NEW.y = 2; END;\nSELECT 1;';
    expect(split(sql)).toEqual([
      [1, 'CREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW BEGIN SET NEW.x = 1; SET NEW.y = 2; END'],
      [2, 'SELECT 1'],
    ]);
  });

  it('a block comment going on past the ";" line does not end it there; "--" without a blank is not a comment', () => {
    expect(split('SELECT 1; /* a\n b */ ;\nSELECT 2--1;\n')).toEqual([
      [1, 'SELECT 1; /* a\n b */'],
      [3, 'SELECT 2--1'],
    ]);
  });

  it('executable comments are code; text after the last ";" is a last statement; a file of comments has none', () => {
    expect(split('/*!40101 SET NAMES utf8mb4 */;\nSELECT 1')).toEqual([
      [1, '/*!40101 SET NAMES utf8mb4 */'],
      [2, 'SELECT 1'],
    ]);
    expect(split('SELECT 1;\nSELECT 2 -- no semicolon\n-- done\n')).toEqual([
      [1, 'SELECT 1'],
      [2, 'SELECT 2'],
    ]);
    expect(split('-- nothing here;\n\n/* ; */\n')).toEqual([]);
    expect(split('')).toEqual([]);
  });

  it('the checksum of the statements done changes with their text, not with comments or blank lines around them', () => {
    const a = splitMysqlStatements('CREATE TABLE a (id INT);\nSELECT 1;');
    const b = splitMysqlStatements('-- a comment\n\nCREATE TABLE a (id INT);   \n\nSELECT 2;');
    const c = splitMysqlStatements('CREATE TABLE a (id BIGINT);\nSELECT 1;');
    expect(statementsChecksum(a.slice(0, 1))).toBe(statementsChecksum(b.slice(0, 1)));
    expect(statementsChecksum(a)).not.toBe(statementsChecksum(b));
    expect(statementsChecksum(a.slice(0, 1))).not.toBe(statementsChecksum(c.slice(0, 1)));
    expect(statementsChecksum([])).toMatch(/^[0-9a-f]{64}$/);
  });
});
