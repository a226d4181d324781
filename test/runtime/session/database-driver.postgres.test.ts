/**
 * The database session driver's writes on PostgreSQL (docs/sessions.md
 * "Drivers"): a save is one statement on the pool — an upsert of the row,
 * with the delete of the row a regenerated ID replaces in the same
 * statement — as the request path needs it.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, defineApp, type TestApp } from '../../../runtime/app/index.js';
import { generateAppKey } from '../../../runtime/config/app-key.js';
import { session } from '../../../runtime/session/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { Jar } from './support/jar.js';
import { Clock, sessionHandlers, sessionRoutes, VIEWS_DIR } from './support/session-server.js';

const clock = new Clock();
const app = defineApp({
  name: 'sessionpg',
  root: fileURLToPath(new URL('.', import.meta.url)),
  routes: sessionRoutes(),
  handlers: sessionHandlers(),
  viewsDir: VIEWS_DIR,
  migrations: [],
  setup: [session({ now: clock.now })],
});

let database: TestDatabase;
let t: TestApp;
const statements: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase('sessionpg');
  t = await createTestApp(app, { databaseUrl: database.url, env: { SESSION_DRIVER: 'database', APP_KEY: generateAppKey() } });
  t.running.database.engine.observe({
    queryStarted: (text) => {
      statements.push(text);
      return undefined;
    },
  });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

/** The statements one request sends. */
async function sentBy(jar: Jar, path: string): Promise<string[]> {
  statements.length = 0;
  await (await jar.fetch(`${t.url}${path}`)).arrayBuffer();
  return statements.map((s) => s.replace(/\s+/g, ' ').trim());
}

const UPSERT =
  'INSERT INTO bindery_sessions (id, data, user_id, started_at, last_used_at, ip_address, user_agent) VALUES ($1, $2::jsonb, $3, $4, $5, $6, $7) ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data, user_id = EXCLUDED.user_id, started_at = EXCLUDED.started_at, last_used_at = EXCLUDED.last_used_at, ip_address = EXCLUDED.ip_address, user_agent = EXCLUDED.user_agent';

describe('Database sessions on PostgreSQL | one statement per save', () => {
  it('a new value is one upsert; a regenerated ID is one statement that deletes the old row too', async () => {
    const jar = new Jar();
    expect(await sentBy(jar, '/s/put?key=colour&value=teal')).toEqual([UPSERT]);
    const regenerate = await sentBy(jar, '/s/regenerate?key=colour&value=green');
    expect(regenerate.filter((s) => s.includes('bindery_sessions') && !s.startsWith('SELECT'))).toEqual([
      `WITH gone AS (DELETE FROM bindery_sessions WHERE id = $1) ${UPSERT.replace(/\$(\d)/g, (_, n: string) => `$${Number(n) + 1}`)}`,
    ]);
    expect(await t.db.selectFrom('bindery_sessions').select('id').execute()).toHaveLength(1);
  });
});
