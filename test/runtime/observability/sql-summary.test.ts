/**
 * What a SQL span says about its statement (docs/observability.md "SQL
 * statements"): the text with literals replaced by `?`, the operation and
 * the table.
 */
import { describe, expect, it } from 'vitest';
import { summarizeSql, withoutLiterals } from '../../../runtime/observability/sql-summary.js';

describe('summarizeSql | operation and table', () => {
  it.each([
    ['select "notes".* from "notes" where "id" = $1 limit 20', 'SELECT', 'notes'],
    ['insert into "notes" ("title", "body") values ($1, $2) returning *', 'INSERT', 'notes'],
    ['update "public"."users" set "name" = $1 where id = $2', 'UPDATE', 'public.users'],
    ['UPDATE ONLY sessions SET data = $1', 'UPDATE', 'sessions'],
    ['delete from sessions where expires_at < now()', 'DELETE', 'sessions'],
    ['with x as (select * from a where b = $1) insert into audit_log (a) select 1 from x', 'INSERT', 'audit_log'],
    ['select id::text as id from graphile_worker.add_job($1::text, $2::json)', 'SELECT', undefined],
    ['select * from (select 1) as t', 'SELECT', undefined],
    ['begin', 'BEGIN', undefined],
    ['', '', undefined],
  ])('%s → %s %s', (sql, operation, table) => {
    expect(summarizeSql(sql)).toMatchObject({ operation, table });
  });
});

describe('withoutLiterals | values never reach a span', () => {
  it('replaces string, escape-string, dollar-quoted and numeric literals; keeps identifiers, placeholders and casts', () => {
    expect(withoutLiterals(`select * from t1 where name = 'Ada' and note = E'it''s' and n > 42.5 and x = $1::int`)).toBe(
      'select * from t1 where name = ? and note = ? and n > ? and x = $1::int',
    );
    expect(withoutLiterals('select $$a secret$$, $tag$another$tag$ from "weird ""quoted"" 7"')).toBe(
      'select ?, ? from "weird ""quoted"" 7"',
    );
    expect(withoutLiterals('select col2, t.c3 from t where a = -5')).toBe('select col2, t.c3 from t where a = -?');
  });

  it('collapses white space in the summary text', () => {
    expect(summarizeSql('select 1\n      from   t').text).toBe('select ? from t');
  });
});
