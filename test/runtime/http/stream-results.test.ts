/**
 * Streamed answers (`stream(batches)`, `result: stream`; docs/http.md
 * "Unbounded answers") over real HTTP: the body is the JSON array an `ok`
 * result of the same rows gives, byte for byte; a slow client is waited
 * for (the source is read about one batch ahead of the socket, never to
 * the end); a failure before the first row is an error response, one after
 * it cuts the connection; `onEnd` runs once, before the closing bracket.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stream, type StreamEnd } from '../../../runtime/results/result.js';
import type { OutputPlan } from '../../../runtime/routing/route-table.js';
import { route } from './support/routes.js';
import { call, closeAll, startServer, waitFor, type TestServer } from './support/server.js';

interface Row {
  id: number;
  title: string;
  secret: string;
}
const row = (id: number): Row => ({ id, title: `Note ${id} "quoted" — ünïcode`, secret: 'hidden' });
const serialize = (r: Row) => ({ id: r.id, title: r.title });
const output: OutputPlan = { resource: 'Note', array: true, serialize };

const ends: Record<string, StreamEnd[]> = { rows: [], empty: [], early: [], late: [], slow: [], ordered: [] };
const onEnd = (name: string) => (end: StreamEnd) => {
  ends[name]!.push(end);
};
let pulled = 0;
let endedBeforeClose: boolean | undefined;

const BIG = 'y'.repeat(256 * 1024);
async function* slowSource() {
  for (let i = 0; i < 1000; i++) {
    pulled++;
    yield [{ id: i, title: BIG, secret: '' }];
  }
}

let server: TestServer;
beforeAll(async () => {
  const routes = ['rows', 'empty', 'early', 'late', 'slow', 'ordered', 'plain'].map((name) =>
    route({ name, path: `/${name}`, result: name === 'plain' ? 'ok' : 'stream', output }),
  );
  server = await startServer({
    routes,
    handlers: {
      // Batches of 1, 0 and 3 rows, and an async source.
      rows: () =>
        stream(
          (async function* () {
            yield [row(1)];
            yield [];
            yield [row(2), row(3), row(4)];
          })(),
          { onEnd: onEnd('rows') },
        ),
      plain: () => [row(1), row(2), row(3), row(4)],
      empty: () => stream([], { onEnd: onEnd('empty') }),
      early: () =>
        stream<Row>(
          { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('the first batch failed')) }) },
          { onEnd: onEnd('early') },
        ),
      late: () =>
        stream(
          (async function* () {
            yield [row(1), row(2)];
            throw new Error('the second batch failed');
          })(),
          { onEnd: onEnd('late') },
        ),
      slow: () => stream(slowSource(), { onEnd: onEnd('slow') }),
      ordered: () =>
        stream([[row(1)]], {
          onEnd: async (end) => {
            await new Promise((r) => setTimeout(r, 50));
            endedBeforeClose = true;
            ends.ordered!.push(end);
          },
        }),
    },
  });
});
afterAll(closeAll);

describe('Results | stream: a JSON array written batch by batch', () => {
  it('writes the bytes an ok result of the same rows writes, without Content-Length; onEnd counts the rows', async () => {
    const streamed = await call(`${server.url}/rows`);
    const plain = await call(`${server.url}/plain`);
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(streamed.headers.get('content-length')).toBeNull();
    expect(streamed.text).toBe(plain.text);
    expect(streamed.text).toBe(JSON.stringify([1, 2, 3, 4].map((id) => serialize(row(id)))));
    expect(ends.rows).toEqual([{ rows: 4, complete: true }]);
  });

  it('answers HEAD with the headers alone, the rows read and dropped', async () => {
    const before = ends.rows!.length;
    const res = await call(`${server.url}/rows`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.text).toBe('');
    await waitFor(() => ends.rows!.length === before + 1, 3_000, 'onEnd of the HEAD request');
  });

  it('writes [] for no rows', async () => {
    const res = await call(`${server.url}/empty`);
    expect(res.status).toBe(200);
    expect(res.text).toBe('[]');
    expect(ends.empty).toEqual([{ rows: 0, complete: true }]);
  });

  it('awaits onEnd before the closing bracket', async () => {
    const res = await call(`${server.url}/ordered`);
    expect(endedBeforeClose).toBe(true);
    expect(res.text).toBe(JSON.stringify([serialize(row(1))]));
    expect(ends.ordered).toEqual([{ rows: 1, complete: true }]);
  });

  it('answers a failure before the first row as an error (500 problem details)', async () => {
    const res = await call(`${server.url}/early`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(ends.early).toEqual([{ rows: 0, complete: false }]);
  });

  it('cuts the connection on a failure after the first row: the client never sees a complete array', async () => {
    // Either the read fails (the connection was cut) or what arrived is not a whole array.
    const text = await fetch(`${server.url}/late`)
      .then((res) => res.text())
      .catch(() => undefined);
    if (text !== undefined) expect(() => JSON.parse(text)).toThrow();
    expect(ends.late).toEqual([{ rows: 2, complete: false }]);
    // The server goes on serving.
    expect((await call(`${server.url}/rows`)).status).toBe(200);
  });

  it('waits for a slow client: the source is read a few batches ahead of the socket, never to its end', async () => {
    pulled = 0;
    const req = request(`${server.url}/slow`);
    const res = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      req.on('response', resolve).on('error', reject).end();
    });
    res.pause();
    // Let the server fill every buffer between it and the paused client.
    await new Promise((r) => setTimeout(r, 300));
    const ahead = pulled;
    expect(ahead).toBeGreaterThan(0);
    expect(ahead).toBeLessThan(100); // of 1,000 batches of 256 KiB
    await new Promise((r) => setTimeout(r, 200));
    expect(pulled).toBe(ahead);
    // The client goes away: the source is closed, onEnd says how far it got.
    res.destroy();
    await waitFor(() => ends.slow!.length === 1, 5_000, 'onEnd of the slow export');
    expect(ends.slow![0]!.complete).toBe(false);
    expect(ends.slow![0]!.rows).toBeLessThanOrEqual(ahead);
    expect(pulled).toBe(ahead);
  });
});
