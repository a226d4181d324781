import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase } from '../database.js';

describe('test support | database', () => {
  const dbs: Array<{ drop(): Promise<void> }> = [];
  afterAll(async () => {
    for (const d of dbs) await d.drop();
  });

  it('creates an empty database that accepts connections', async () => {
    const db = await createTestDatabase();
    dbs.push(db);
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const { rows } = await c.query('select current_database() as name');
    await c.end();
    expect(rows[0].name).toBe(db.name);
  });
});
