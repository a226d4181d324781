/**
 * Writing a streamed answer (docs/http.md "Unbounded answers"): a 200 JSON
 * array, batch by batch, each row through the route's output serializer.
 *
 * - **Bounded memory**: one batch of rows, and at most about 64 KiB of its
 *   JSON waiting for the socket: a write the socket cannot take yet waits for
 *   it to drain before the next rows are serialized or read.
 * - **A responsive server**: the event loop is given back after every batch
 *   and whenever 10 ms of serializing has passed within one.
 * - **The same bytes**: `[` + each row's `JSON.stringify` joined by `,` + `]`,
 *   what Fastify writes for the array of the same serialized rows.
 * - **Failures**: one before the first row (the first batch's read) is
 *   thrown, and answered as any error; once the body has begun, the
 *   connection is cut (Fastify logs the error), so the client sees an
 *   incomplete array rather than a complete-looking one.
 */
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { RouteDefinition } from '../../routing/route-table.js';
import { clientGone, logClientGone } from '../../support/client-connection.js';
import { rowSerializer } from '../includes.js';
import type { StreamEnd, StreamResult } from '../result.js';

/** What a streamed answer needs from its request. */
export interface StreamTarget {
  readonly route: RouteDefinition;
  readonly reply: FastifyReply;
  readonly log: FastifyBaseLogger;
}

const JSON_TYPE = 'application/json; charset=utf-8';
/** Serialized rows gathered into one write, in characters. */
const CHUNK_CHARS = 64 * 1024;
/** Serializing time after which the event loop is given back, within a batch, in ms. */
const SLICE_MS = 10;

type Row = Record<string, unknown>;

/**
 * Write `result` as the response of `target`.
 * @returns a promise settled when the answer has ended (written, cut, or the client gone); it
 *   rejects only for a failure before anything was sent (reading the first batch), never after.
 */
export async function sendStream(target: StreamTarget, result: StreamResult<unknown>): Promise<void> {
  const source = result.batches;
  // One async iterator over either kind of source; closing it closes the source.
  const batches: AsyncGenerator<readonly unknown[]> = (async function* () {
    yield* source;
  })();
  const end = endOnce(result, target.log);
  let first: IteratorResult<readonly unknown[]>;
  try {
    first = await batches.next();
  } catch (err) {
    await end.quietly(0);
    throw err;
  }
  const reply = target.reply;
  if (clientGone(reply)) {
    logClientGone(target.log);
    await batches.return(undefined).catch(() => undefined);
    await end.quietly(0);
    return;
  }
  const body = new PassThrough();
  reply.code(200).header('content-type', JSON_TYPE).send(body);
  await pump(body, batches, first, serializerOf(target.route), end);
}

/** The serializer of one row of the route's output list (with its included relations). */
function serializerOf(route: RouteDefinition): (row: Row) => unknown {
  const output = route.output;
  if (output === null) return (row) => row;
  return output.shape !== undefined ? output.serialize : rowSerializer(route);
}

/** Calls `onEnd` once: `complete` awaited (its error propagates), `quietly` with complete false (its error logged). */
function endOnce(result: StreamResult<unknown>, log: FastifyBaseLogger) {
  let called = false;
  const call = (end: StreamEnd): unknown => {
    if (called || result.onEnd === undefined) return undefined;
    called = true;
    return result.onEnd(end);
  };
  return {
    complete: async (rows: number): Promise<void> => {
      await call({ rows, complete: true });
    },
    quietly: async (rows: number): Promise<void> => {
      try {
        await call({ rows, complete: false });
      } catch (err) {
        log.error({ err }, 'the onEnd of a streamed answer that stopped early failed');
      }
    },
  };
}

/** Serialize and write every batch into `body`, then close the array; never throws. */
async function pump(
  body: PassThrough,
  batches: AsyncGenerator<readonly unknown[]>,
  first: IteratorResult<readonly unknown[]>,
  serialize: (row: Row) => unknown,
  end: ReturnType<typeof endOnce>,
): Promise<void> {
  let rows = 0;
  let chunk = '';
  let complete = false;
  // Write what was serialized; false once the client is gone.
  const flush = async (): Promise<boolean> => {
    if (body.destroyed) return false;
    const room = body.write(chunk);
    chunk = '';
    if (!room) await drained(body);
    return !body.destroyed;
  };
  try {
    let slice = performance.now();
    for (let next = first; next.done !== true; next = await batches.next()) {
      for (const row of next.value) {
        chunk += (rows === 0 ? '[' : ',') + (JSON.stringify(serialize(row as Row)) ?? 'null');
        rows++;
        if (chunk.length >= CHUNK_CHARS && !(await flush())) return;
        if (performance.now() - slice > SLICE_MS) {
          await nextTurn();
          slice = performance.now();
        }
      }
      if (chunk.length > 0 && !(await flush())) return;
      await nextTurn();
      slice = performance.now();
    }
    await end.complete(rows);
    complete = true;
    body.end(rows === 0 ? '[]' : ']');
  } catch (err) {
    body.destroy(err instanceof Error ? err : new Error(String(err)));
  } finally {
    if (!complete) {
      await batches.return(undefined).catch(() => undefined);
      await end.quietly(rows);
    }
  }
}

/** Resolves when `stream` can take more, or was destroyed (the client went away). */
function drained(stream: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}
