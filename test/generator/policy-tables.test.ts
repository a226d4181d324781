/**
 * The framework tables a policy may govern (`generator/model/policy-tables.ts`)
 * list the columns their migrations create, and the primary key: a rule
 * naming a column the table lacks must be refused, one it has accepted.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { FRAMEWORK_TABLES } from '../../generator/model/policy-tables.js';
import { REPO } from './support.js';

/** The migration creating each framework table. */
const MIGRATIONS: Record<string, string> = { api_tokens: 'runtime/auth/tokens/migrations/postgres/0001_create_api_tokens.sql' };

describe('policy tables | the framework tables and their migrations agree', () => {
  it.each(Object.keys(FRAMEWORK_TABLES))('%s: every column and the primary key', async (table) => {
    const sql = await readFile(`${REPO}${MIGRATIONS[table]}`, 'utf8');
    const body = new RegExp(`CREATE TABLE ${table} \\(([\\s\\S]*?)\\n\\);`).exec(sql)![1]!;
    const columns = body
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /^[a-z_]+ /.test(line) && !line.startsWith('CONSTRAINT'))
      .map((line) => line.split(' ')[0]);
    const known = FRAMEWORK_TABLES[table]!;
    expect(Object.keys(known.columns).sort()).toEqual([...columns].sort());
    expect(body).toMatch(new RegExp(`\\n\\s*${known.primaryKey} [^,]*PRIMARY KEY`));
  });
});
