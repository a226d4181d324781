import type { Generated, Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../../../../runtime/db/connect.js';
import { isUniqueViolation } from '../../../../../runtime/db/database-errors.js';
import { insertIfAbsent, insertReturning, updateReturning, upsert } from '../../../../../runtime/db/portable-writes.js';
import { createTestMariaDatabase, type TestDatabase } from '../../../../support/database.js';

interface Tables {
  notes: { id: Generated<number>; title: string; tags: unknown; created_at: Generated<Date> };
  tokens: { token: string; uses: Generated<number> };
}

describe('insertReturning / updateReturning | on MariaDB (no RETURNING: the write, then a read by key)', () => {
  let testDb: TestDatabase;
  let database: Database;
  let db: Kysely<Tables>;
  beforeAll(async () => {
    testDb = await createTestMariaDatabase('returning');
    database = await connectDatabase({ url: testDb.url });
    db = database.db as unknown as Kysely<Tables>;
    await database.engine.run(
      'CREATE TABLE notes (id BIGINT AUTO_INCREMENT PRIMARY KEY, title VARCHAR(100) NOT NULL UNIQUE, tags JSON, created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6))',
    );
    await database.engine.run('CREATE TABLE tokens (token CHAR(36) PRIMARY KEY, uses INT NOT NULL DEFAULT 0)');
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  it('insertReturning gives the row as stored: the generated key, the defaults, JSON parsed', async () => {
    const before = Date.now();
    const note = await insertReturning(db, 'notes', { title: 'first', tags: ['a', 'b'] });
    expect(note).toMatchObject({ id: expect.any(Number), title: 'first', tags: ['a', 'b'] });
    expect(note.created_at).toBeInstanceOf(Date);
    expect(Math.abs(note.created_at.getTime() - before)).toBeLessThan(5000);
    const second = await insertReturning(db, 'notes', { title: 'second', tags: [] });
    expect(second.id).toBe(note.id + 1);
  });

  it('insertReturning with a key given by the caller reads the row by it', async () => {
    const token = await insertReturning(db, 'tokens', { token: '0b9a4f3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b' }, { key: 'token' });
    expect(token).toEqual({ token: '0b9a4f3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b', uses: 0 });
  });

  it('updateReturning gives the updated row, or undefined for a missing key', async () => {
    const note = await insertReturning(db, 'notes', { title: 'to update', tags: null });
    const updated = await updateReturning(db, 'notes', note.id, { title: 'updated', tags: { k: 1 } });
    expect(updated).toMatchObject({ id: note.id, title: 'updated', tags: { k: 1 } });
    expect(await updateReturning(db, 'notes', 999_999, { title: 'nobody' })).toBeUndefined();
    const token = await updateReturning(db, 'tokens', '0b9a4f3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b', { uses: 3 }, { key: 'token' });
    expect(token).toEqual({ token: '0b9a4f3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b', uses: 3 });
  });

  it('in a transaction, and a duplicate is a unique violation by kind', async () => {
    const inside = await db.transaction().execute((trx) => insertReturning(trx, 'notes', { title: 'in trx', tags: [] }));
    expect(inside.title).toBe('in trx');
    const error = await insertReturning(db, 'notes', { title: 'in trx', tags: [] }).catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
  });

  it('insertIfAbsent counts the rows inserted, skips taken keys, and never cuts a value (no INSERT IGNORE)', async () => {
    const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    expect(await insertIfAbsent(db, 'tokens', [{ token: uuid(1) }, { token: uuid(2) }], { conflict: ['token'] })).toBe(2);
    expect(await insertIfAbsent(db, 'tokens', [{ token: uuid(2) }, { token: uuid(3) }], { conflict: ['token'] })).toBe(1);
    expect(await insertIfAbsent(db, 'tokens', { token: uuid(3) }, { conflict: ['token'] })).toBe(0);
    // A value too long for its column is an error, as on PostgreSQL, not a cut value with a warning.
    await expect(insertIfAbsent(db, 'notes', { title: 'x'.repeat(101), tags: [] }, { conflict: ['title'] })).rejects.toThrow(/too long/i);
    expect(await db.selectFrom('notes').select('title').where('title', 'like', 'xxx%').execute()).toEqual([]);
    const kept = await db
      .selectFrom('tokens')
      .select('token')
      .where('token', 'like', '00000000-0000-4000-8000-00000000000%')
      .orderBy('token')
      .execute();
    expect(kept.map((r) => r.token)).toEqual([uuid(1), uuid(2), uuid(3)]);
  });

  it('upsert with no column to update leaves the row as it is and stays strict', async () => {
    const token = '00000000-0000-4000-8000-000000000009';
    await upsert(db, 'tokens', { token, uses: 4 }, { conflict: ['token'] });
    await upsert(db, 'tokens', { token }, { conflict: ['token'], update: [] });
    expect(await db.selectFrom('tokens').select('uses').where('token', '=', token).executeTakeFirst()).toEqual({ uses: 4 });
    await expect(upsert(db, 'tokens', { token: `${token}-far-too-long` }, { conflict: ['token'], update: [] })).rejects.toThrow(
      /too long/i,
    );
  });
});
