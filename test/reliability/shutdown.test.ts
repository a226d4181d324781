/**
 * SIGTERM under load (docs/reliability.md): clients keep posting notes while
 * the process is told to stop. Every write answered 2xx is in the database,
 * and no row exists without a 2xx answer; the process exits 0.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppProcess, type AppProcess } from './support/app-process.js';
import { httpClient, type RawReply } from './support/http-client.js';
import { size } from './support/scale.js';
import { waitFor } from './support/wait-for.js';

let app: AppProcess;

beforeAll(async () => {
  app = await startAppProcess({ LOG_LEVEL: 'error' });
});
afterAll(async () => {
  await app?.stop();
});

describe('Shutdown | SIGTERM under load', () => {
  it('every 2xx write is stored, no row without a 2xx, exit 0', async () => {
    const clients = size(10, 20);
    const client = httpClient(app.url, clients);
    const outcomes: Array<{ title: string; reply: RawReply }> = [];
    let n = 0;
    let stop = false;
    const load = Array.from({ length: clients }, async () => {
      while (!stop) {
        const title = `shutdown ${n++}`;
        const reply = await client.send({
          method: 'POST',
          path: '/notes',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ title }),
        });
        outcomes.push({ title, reply });
        // Refused: the server is gone; the run is over for this client.
        if (reply.status === 0 && /ECONNREFUSED/.test(reply.error ?? '')) return;
      }
    });
    await waitFor(
      'some notes to be written',
      () => (outcomes.filter((o) => o.reply.status === 201).length >= size(50, 300) ? true : undefined),
      30_000,
    );
    app.child.kill('SIGTERM');
    const exit = await app.exited;
    stop = true;
    await Promise.all(load);
    client.close();
    expect(exit).toEqual({ code: 0, signal: null });

    const db = new pg.Client({ connectionString: app.database.url });
    await db.connect();
    const { rows } = await db.query<{ title: string }>("select title from notes where title like 'shutdown %'");
    await db.end();
    const stored = new Set(rows.map((r) => r.title));
    const ok = outcomes.filter((o) => o.reply.status >= 200 && o.reply.status < 300).map((o) => o.title);
    const statuses = new Map<string, number>();
    for (const o of outcomes) {
      const key = o.reply.status === 0 ? `error ${/E[A-Z]+/.exec(o.reply.error ?? '')?.[0] ?? o.reply.error}` : String(o.reply.status);
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
    }
    console.log(
      `shutdown: ${outcomes.length} writes, ${ok.length} answered 2xx, ${stored.size} rows; outcomes ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect(ok.filter((t) => !stored.has(t))).toEqual([]);
    const okSet = new Set(ok);
    expect([...stored].filter((t) => !okSet.has(t))).toEqual([]);
    // Whatever was refused during the shutdown was refused cleanly: 503 with problem details, or a refused/closed connection.
    for (const o of outcomes.filter((x) => x.reply.status >= 300)) {
      expect(o.reply.status).toBe(503);
      expect(o.reply.headers['content-type'], o.reply.body).toMatch(/^application\/problem\+json/);
      expect(o.reply.headers['x-request-id']).toBeTruthy();
    }
  }, 120_000);
});
