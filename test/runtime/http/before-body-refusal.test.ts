/**
 * A refusal decided before the body (docs/http.md "Before the body"): a
 * small announced body is read and discarded, so the client's upload
 * completes and the connection stays open; a large one is not read and the
 * connection is closed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../../runtime/errors/http-error.js';
import { DISCARDED_BODY_BYTES } from '../../../runtime/http/before-body.js';
import { route } from './support/routes.js';
import { call, closeAll, startServer, type TestServer } from './support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    routes: [route({ name: 'guarded', method: 'POST', path: '/guarded', middleware: ['deny'] })],
    handlers: { guarded: () => ({ ok: true }) },
    middleware: {
      deny: {
        before: () => undefined,
        beforeBody: () => {
          throw new HttpError(401, 'Sign in first.');
        },
      },
    },
  });
});
afterAll(closeAll);

const post = (bytes: number) =>
  call(`${server.url}/guarded`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', accept: 'application/json' },
    body: new Uint8Array(bytes),
  });

describe('before-body refusal', () => {
  it('reads and discards a small body: the client gets its 401, the connection is kept', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await post(DISCARDED_BODY_BYTES);
      expect(res.status).toBe(401);
      expect(res.headers.get('connection')).not.toBe('close');
    }
  });

  it('closes the connection on a large body it never reads', async () => {
    const res: Awaited<ReturnType<typeof post>> | Error = await post(DISCARDED_BODY_BYTES + 1).catch((error: Error) => error);
    // The client may see the 401 or, still writing, a failed write: either way the server closed.
    if (res instanceof Error) expect(String(res.cause ?? res)).toMatch(/EPIPE|ECONNRESET|socket|other side closed/i);
    else {
      expect(res.status).toBe(401);
      expect(res.headers.get('connection')).toBe('close');
    }
  });
});
