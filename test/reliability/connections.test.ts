/**
 * Slow and idle clients, and requests Node's parser or Fastify's router
 * refuse (docs/reliability.md): every one is answered with problem details
 * (security headers, request ID) and every connection is closed within its
 * deadline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootReferenceApp, type ReferenceApp } from '../app/tokens-support.js';
import { openRaw, parseResponse, type RawConnection } from './support/raw-http.js';
import { size } from './support/scale.js';

const BODY_TIMEOUT = 1000;
const HEADERS_TIMEOUT = 500;
const KEEP_ALIVE = 500;
/** Deadline slack: the server checks deadlines every tenth of the shortest one, plus scheduling on a busy machine. */
const SLACK = 700;

let a: ReferenceApp;

beforeAll(async () => {
  a = await bootReferenceApp('conns', {
    HTTP_BODY_TIMEOUT: `${BODY_TIMEOUT}ms`,
    HTTP_HEADERS_TIMEOUT: `${HEADERS_TIMEOUT}ms`,
    HTTP_KEEP_ALIVE_TIMEOUT: `${KEEP_ALIVE}ms`,
  });
});
afterAll(async () => {
  await a?.close();
});

function expectProblem(raw: string, status: number): { detail: string; request_id: string } {
  const res = parseResponse(raw);
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  expect(res.headers['x-request-id']).toMatch(/\S/);
  const problem = JSON.parse(res.body);
  expect(problem).toMatchObject({ status, request_id: res.headers['x-request-id'] });
  return problem;
}

describe('Deadlines | slow and idle clients are answered and closed', () => {
  it('a body that never completes: 408 problem details within HTTP_BODY_TIMEOUT, connection closed, nothing stored', async () => {
    const c = await openRaw(
      a.url,
      'POST /notes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: 100\r\n\r\n{"title":"',
    );
    const ms = await c.closed;
    expect(ms).toBeLessThan(BODY_TIMEOUT + SLACK);
    expect(ms).toBeGreaterThanOrEqual(BODY_TIMEOUT - 50);
    expect(expectProblem(c.received(), 408).detail).toMatch(/HTTP_BODY_TIMEOUT/);
    expect(parseResponse(c.received()).headers.connection).toBe('close');
    expect(await a.db.selectFrom('notes').select('id').execute()).toEqual([]);
  });

  it('a body trickled a byte at a time is still cut at the deadline', async () => {
    const c = await openRaw(
      a.url,
      'POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: 1000\r\n\r\n',
    );
    const timer = setInterval(() => {
      if (!c.isClosed()) c.socket.write(' ');
    }, 50);
    try {
      expect(await c.closed).toBeLessThan(BODY_TIMEOUT + SLACK);
    } finally {
      clearInterval(timer);
    }
    expectProblem(c.received(), 408);
  });

  it('headers that never complete: 408 within HTTP_HEADERS_TIMEOUT', async () => {
    const c = await openRaw(a.url, 'GET /notes HTTP/1.1\r\nHost: x\r\n');
    expect(await c.closed).toBeLessThan(HEADERS_TIMEOUT + SLACK);
    expect(expectProblem(c.received(), 408).detail).toMatch(/HTTP_HEADERS_TIMEOUT/);
  });

  it('an idle keep-alive connection is closed after HTTP_KEEP_ALIVE_TIMEOUT (Node adds up to 1 s of grace)', async () => {
    const c = await openRaw(a.url, 'GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n');
    const ms = await c.closed;
    expect(parseResponse(c.received()).status).toBe(200);
    expect(ms).toBeLessThan(KEEP_ALIVE + 1000 + SLACK);
  });

  it('many slow-body clients at once are all answered 408 and closed within HTTP_BODY_TIMEOUT', async () => {
    const count = size(50, 1000);
    const started = Date.now();
    const conns: RawConnection[] = [];
    for (let i = 0; i < count; i++) {
      conns.push(
        await openRaw(
          a.url,
          `POST /notes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: 100\r\n\r\n{"title":"slow ${i}`,
        ),
      );
    }
    const opened = Date.now() - started;
    const closedAfter = await Promise.all(conns.map((c) => c.closed));
    const worst = Math.max(...closedAfter);
    console.log(
      `slow bodies: ${count} clients (opened in ${opened} ms), all closed; latest after ${worst} ms (HTTP_BODY_TIMEOUT ${BODY_TIMEOUT} ms)`,
    );
    expect(worst).toBeLessThan(BODY_TIMEOUT + SLACK + opened);
    for (const c of conns) expect(parseResponse(c.received()).status).toBe(408);
    expect(await a.db.selectFrom('notes').select('id').execute()).toEqual([]);
  }, 60_000);

  it(`many silent connections are all closed within HTTP_HEADERS_TIMEOUT`, async () => {
    const count = size(200, 2000);
    const started = Date.now();
    const conns: RawConnection[] = [];
    for (let i = 0; i < count; i++) conns.push(await openRaw(a.url));
    const opened = Date.now() - started;
    const closedAfter = await Promise.all(conns.map((c) => c.closed));
    console.log(
      `silent connections: ${count} (opened in ${opened} ms), all closed; latest after ${Math.max(...closedAfter)} ms (HTTP_HEADERS_TIMEOUT ${HEADERS_TIMEOUT} ms)`,
    );
    expect(Math.max(...closedAfter)).toBeLessThan(HEADERS_TIMEOUT + SLACK + opened);
    // The server still answers.
    expect((await fetch(`${a.url}/health/live`)).status).toBe(200);
  }, 60_000);
});

describe('Before the body | refusals that need no body are answered before it is read', () => {
  /** Announce a 5 MB body, send none of it: only an answer decided before the body can arrive. */
  async function announce(head: string): Promise<{ raw: string; ms: number }> {
    const started = Date.now();
    const c = await openRaw(a.url, `${head}Host: x\r\nContent-Length: 5000000\r\n\r\n`);
    await c.closed;
    return { raw: c.received(), ms: Date.now() - started };
  }

  it('a bearer route without credentials: 401 problem details at once, connection closed', async () => {
    const { raw, ms } = await announce('POST /api/documents HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json\r\n');
    expect(ms).toBeLessThan(BODY_TIMEOUT);
    expect(parseResponse(raw).headers['www-authenticate']).toBe('Bearer');
    expectProblem(raw, 401);
  });

  // (A URL-encoded POST is read first for a `_method` override, up to HTTP_MAX_BODY within HTTP_BODY_TIMEOUT.)
  it('a signed-in form route without any cookie: 403 (CSRF) at once', async () => {
    const { raw, ms } = await announce(
      'POST /tokens HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=x\r\nAccept: application/json\r\n',
    );
    expect(ms).toBeLessThan(BODY_TIMEOUT);
    expectProblem(raw, 403);
  });

  it('a cross-site form post: 403 at once, even with a cookie', async () => {
    const { raw, ms } = await announce(
      'POST /notes HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=x\r\nAccept: application/json\r\nSec-Fetch-Site: cross-site\r\nCookie: app_session=x\r\n',
    );
    expect(ms).toBeLessThan(BODY_TIMEOUT);
    expect(expectProblem(raw, 403).detail).toMatch(/another site/);
  });

  it('a signed-in JSON route without credentials: 401 at once', async () => {
    const { raw, ms } = await announce('POST /tokens HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json\r\n');
    expect(ms).toBeLessThan(BODY_TIMEOUT);
    expectProblem(raw, 401);
  });

  it('a JSON post carrying the session cookie without X-CSRF-Token: 403 at once (its token can only be in that header)', async () => {
    const { raw, ms } = await announce(
      'POST /notes HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json\r\nCookie: app_session=x\r\n',
    );
    expect(ms).toBeLessThan(BODY_TIMEOUT);
    expectProblem(raw, 403);
  });

  it('the mail-provider webhook without its Basic credentials: 401 at once, with the challenge', async () => {
    const { raw, ms } = await announce(
      'POST /mailprovider/webhook HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json\r\nAuthorization: Basic eDp5\r\n',
    );
    expect(ms).toBeLessThan(BODY_TIMEOUT);
    expect(parseResponse(raw).headers['www-authenticate']).toBe('Basic realm="mailprovider"');
    expectProblem(raw, 401);
  });

  it("a body over the route's own limit (the login form: 64 KiB): 413 at once", async () => {
    const { raw, ms } = await announce('POST /login HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json\r\n');
    expect(ms).toBeLessThan(BODY_TIMEOUT);
    expect(expectProblem(raw, 413).detail).toBe("The request body is larger than this route's limit of 65536 bytes (bodyLimit).");
  });
});

describe('Malformed requests | problem details, security headers, request ID', () => {
  it('an undecodable URL (/notes/%ZZ): 400, for API clients and browsers', async () => {
    const api = await fetch(`${a.url}/notes/%ZZ`, { headers: { accept: 'application/json' } });
    expect(api.status).toBe(400);
    expect(api.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(api.headers.get('x-content-type-options')).toBe('nosniff');
    const problem = (await api.json()) as { detail: string; request_id: string };
    expect(problem.detail).toBe('The request URL cannot be decoded.');
    expect(problem.request_id).toBe(api.headers.get('x-request-id'));
    const page = await fetch(`${a.url}/notes/%ZZ`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('x-request-id')).toBeTruthy();
    expect(await page.text()).toContain('The request URL cannot be decoded.');
  });

  it('a path parameter over the length limit: 400 problem details', async () => {
    const res = await fetch(`${a.url}/auth/${'x'.repeat(200)}/redirect`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it.each([
    [
      'a Content-Length that is not a number',
      'POST /notes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}',
    ],
    [
      'Content-Length and Transfer-Encoding together',
      'POST /notes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}',
    ],
    ['a broken request line', 'GET /notes HTTP/9.Z\r\nHost: x\r\n\r\n'],
    ['a header without a colon', 'GET /notes HTTP/1.1\r\nHost x\r\n\r\n'],
  ])('%s: 400 problem details, connection closed', async (_what, bytes) => {
    const c = await openRaw(a.url, bytes);
    expect(await c.closed).toBeLessThan(2000);
    expectProblem(c.received(), 400);
  });

  it('headers too large: 431 problem details', async () => {
    const c = await openRaw(a.url, `GET /notes HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    await c.closed;
    expectProblem(c.received(), 431);
  });
});
