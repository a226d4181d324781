import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectDatabase,
  databaseErrorOf,
  insertReturning,
  isCheckViolation,
  isForeignKeyViolation,
  isSerializationFailure,
  isUndefinedTable,
  isUniqueViolation,
  type Database,
} from '../../../runtime/db/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

interface DB {
  authors: { id: number; email: string; age: number };
  books: { id: number; author_id: number };
}

/** What `write` rejects with. */
async function failure(write: () => Promise<unknown>): Promise<unknown> {
  try {
    await write();
  } catch (error) {
    return error;
  }
  throw new Error('the write succeeded');
}

describe('database errors by kind | isUniqueViolation and friends, without SQLSTATEs', () => {
  let testDb: TestDatabase;
  let database: Database;
  let db: Kysely<DB>;
  beforeAll(async () => {
    testDb = await createTestDatabase('database_errors');
    database = await connectDatabase({ url: testDb.url });
    db = database.db as Kysely<DB>;
    await sql`create table authors (id integer primary key, email text not null, age integer not null check (age >= 0))`.execute(db);
    await sql`create unique index authors_email_key on authors (email)`.execute(db);
    await sql`create table books (id integer primary key, author_id integer not null references authors (id))`.execute(db);
    await insertReturning(db, 'authors', { id: 1, email: 'ada@example.com', age: 36 });
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  it('a duplicate key is a unique violation, of the index it names', async () => {
    const error = await failure(() => insertReturning(db, 'authors', { id: 2, email: 'ada@example.com', age: 1 }));
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(error, 'authors_email_key')).toBe(true);
    expect(isUniqueViolation(error, 'authors_pkey')).toBe(false);
    expect(databaseErrorOf(error)).toEqual({ kind: 'unique-violation', constraint: 'authors_email_key' });
    const primary = await failure(() => insertReturning(db, 'authors', { id: 1, email: 'grace@example.com', age: 1 }));
    expect(isUniqueViolation(primary, 'authors_pkey')).toBe(true);
    expect(isForeignKeyViolation(error) || isCheckViolation(error) || isSerializationFailure(error) || isUndefinedTable(error)).toBe(false);
  });

  it('is recognized through the cause chain of wrapping errors', async () => {
    const error = await failure(() => insertReturning(db, 'authors', { id: 3, email: 'ada@example.com', age: 1 }));
    const wrapped = new Error('saving the author failed', { cause: new Error('the write failed', { cause: error }) });
    expect(isUniqueViolation(wrapped)).toBe(true);
    expect(isUniqueViolation(wrapped, 'authors_email_key')).toBe(true);
    expect(isUniqueViolation(wrapped, 'books_pkey')).toBe(false);
  });

  it('foreign-key and CHECK violations name their constraint; a missing table is undefined-table', async () => {
    const fk = await failure(() => db.insertInto('books').values({ id: 1, author_id: 99 }).execute());
    expect(isForeignKeyViolation(fk)).toBe(true);
    expect(isForeignKeyViolation(fk, 'books_author_id_fkey')).toBe(true);
    expect(isUniqueViolation(fk)).toBe(false);
    const check = await failure(() => db.insertInto('authors').values({ id: 4, email: 'x@example.com', age: -1 }).execute());
    expect(isCheckViolation(check, 'authors_age_check')).toBe(true);
    const missing = await failure(() => sql`select 1 from no_such_table`.execute(db));
    expect(isUndefinedTable(missing)).toBe(true);
    expect(isUndefinedTable(new Error('wrapped', { cause: missing }))).toBe(true);
  });

  it('anything else is no database error: false, never a throw', () => {
    for (const value of [new Error('plain'), { code: 'ENOENT' }, 'text', null, undefined, 42]) {
      expect(isUniqueViolation(value)).toBe(false);
      expect(isUndefinedTable(value)).toBe(false);
      expect(databaseErrorOf(value)).toBeUndefined();
    }
  });
});
