/**
 * `bindery db:seed` as users run it (a child process against a test
 * database): the seeds of app/seeds/ in name order in one transaction — a
 * failing seed leaves nothing written and exits 1 naming it — and the
 * reference app's own seed, whose factory-made rows pass the routes' checks.
 */
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAppKey } from '../../../runtime/config/app-key.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { referenceAppEnv } from '../../support/reference-app-env.js';
import { runCli } from './run-cli.js';

const fixture = fileURLToPath(new URL('./fixtures/seed-app', import.meta.url));
const repo = fileURLToPath(new URL('../../../', import.meta.url));

async function rows(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('bindery db:seed | against a test database', () => {
  let db: TestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    db = await createTestDatabase('cli_seed');
    env = { DATABASE_URL: db.url, APP_KEY: generateAppKey() };
    expect((await runCli(['migrate'], { cwd: fixture, env })).code).toBe(0);
  });
  afterAll(async () => {
    await db.drop();
  });

  it('rolls every seed back when one throws, exits 1 and names the seed', async () => {
    const r = await runCli(['db:seed'], { cwd: fixture, env: { ...env, SEED_FAIL: '1' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'Seed app/seeds/0002_more.ts failed: the third thing is not wanted. The transaction was rolled back: no seed of this run wrote anything.',
    );
    expect(r.stderr).toContain('BINDERY_SEED_FAILED');
    expect(await rows(db.url, 'SELECT name FROM things')).toEqual([]);
  });

  it('runs the seeds in file-name order in one transaction', async () => {
    const r = await runCli(['db:seed'], { cwd: fixture, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^ {2}2 things\nSeeded app\/seeds\/0001_things\.ts \(\d+ ms\)\nSeeded app\/seeds\/0002_more\.ts \(\d+ ms\)\nSeeded 2 file\(s\) in one transaction\.\n$/,
    );
    expect((await rows(db.url, 'SELECT name FROM things ORDER BY id')).map((x) => x['name'])).toEqual(['first', 'second', 'third']);
  });
});

describe('bindery db:seed | the reference app', () => {
  let db: TestDatabase;
  afterAll(async () => {
    await db.drop();
  });

  it('seeds a user, notes and documents (twice without a conflict)', async () => {
    db = await createTestDatabase('cli_seed_app');
    const env = { DATABASE_URL: db.url, APP_KEY: generateAppKey(), ...referenceAppEnv };
    expect((await runCli(['migrate'], { cwd: repo, env })).code).toBe(0);
    for (let run = 0; run < 2; run++) {
      const r = await runCli(['db:seed'], { cwd: repo, env });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/user demo@example\.com \(id \d+\), 3 notes, 3 documents/);
    }
    expect(await rows(db.url, `SELECT count(*)::int AS n FROM users WHERE email = 'demo@example.com'`)).toEqual([{ n: 1 }]);
    expect(await rows(db.url, 'SELECT status, count(*)::int AS n FROM documents GROUP BY status ORDER BY status')).toEqual([
      { status: 'archived', n: 2 },
      { status: 'draft', n: 2 },
      { status: 'published', n: 2 },
    ]);
    expect((await rows(db.url, 'SELECT count(*)::int AS n FROM notes'))[0]).toEqual({ n: 6 });
  }, 120_000);
});
