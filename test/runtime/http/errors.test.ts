/**
 * docs/spec.md 7 over real HTTP: 500 (hidden / debug), debug page redaction, debug
 * refused in production, problem details vs HTML by client kind, recovered
 * throws, 5xx logging with the request ID, 499, responses already started,
 * and the request timeout (503).
 */
import { request as httpRequest } from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BinderyError } from '../../../runtime/errors/bindery-error.js';
import { createHttpServer } from '../../../runtime/http/server.js';
import type { Services } from '../../../runtime/http/context.js';
import { respond } from '../../../runtime/results/result.js';
import { route } from './support/routes.js';
import { call, closeAll, deferred, startServer, waitFor, type LogLine } from './support/server.js';

afterAll(closeAll);

const crashRoute = route({ name: 'crash', path: '/crash' });
const crash = () => {
  throw new Error('query failed: password=hunter2', {
    cause: new Error('connection refused by db.internal:5432', { cause: new TypeError('socket closed') }),
  });
};
const ERROR = 50;

describe('Errors | 500 with the message hidden', () => {
  it('problem details for API clients, the error logged with the request ID', async () => {
    const server = await startServer({ routes: [crashRoute], handlers: { crash } });
    const res = await call(`${server.url}/crash`, { headers: { accept: 'application/json', 'x-request-id': 'trace-500' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(res.json()).toEqual({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      detail: 'An internal error occurred.',
      request_id: 'trace-500',
    });
    const line = server.logs.find((l) => l.level === ERROR && l.reqId === 'trace-500');
    expect(line).toMatchObject({
      code: 'BINDERY_INTERNAL_ERROR',
      statusCode: 500,
      msg: 'request failed with 500: query failed: password=hunter2',
    });
    // pino's error serializer appends the causes' messages.
    expect((line?.err as { message: string }).message).toBe(
      'query failed: password=hunter2: connection refused by db.internal:5432: socket closed',
    );
  });

  it('an HTML page for browsers, without the message', async () => {
    const server = await startServer({ routes: [crashRoute], handlers: { crash } });
    const res = await call(`${server.url}/crash`, {
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'x-request-id': 'page-1' },
    });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toMatch(/^<!doctype html>/);
    expect(res.text).toContain('<title>500 Internal Server Error</title>');
    expect(res.text).toContain('<p>An internal error occurred.</p>');
    expect(res.text).toContain('<code>page-1</code>');
    expect(res.text).not.toContain('hunter2');
    expect(res.text).not.toContain('<pre>');
  });

  it('recovers non-Error throws and rejections', async () => {
    const server = await startServer({
      routes: [route({ name: 'str', path: '/str' }), route({ name: 'rej', path: '/rej' })],
      handlers: {
        str: () => {
          throw 'a string';
        },
        rej: () => Promise.reject({ weird: true }),
      },
    });
    for (const path of ['/str', '/rej']) {
      const res = await call(`${server.url}${path}`, { headers: { accept: 'application/json' } });
      expect(res.status, path).toBe(500);
      expect(res.json().detail).toBe('An internal error occurred.');
    }
    expect(server.logs.filter((l) => l.level === ERROR).map((l) => (l.err as { message: string }).message)).toEqual([
      "A non-error value was thrown: 'a string'",
      'A non-error value was thrown: { weird: true }',
    ]);
  });
});

describe('Errors | debug (APP_DEBUG=true)', () => {
  it('problem details show the message', async () => {
    const server = await startServer({ debug: true, routes: [crashRoute], handlers: { crash } });
    const res = await call(`${server.url}/crash`, { headers: { accept: 'application/json' } });
    expect(res.json().detail).toBe('query failed: password=hunter2');
  });

  it('the page shows the error chain, stack and request details with secrets redacted', async () => {
    const server = await startServer({ debug: true, routes: [crashRoute], handlers: { crash } });
    const res = await call(`${server.url}/crash?token=abc123&page=2`, {
      headers: {
        accept: 'text/html',
        authorization: 'Basic sk_live_SECRET', // a browser's own credentials: a bearer token would make it an API client (problem details)
        cookie: 'session=COOKIESECRET',
        'x-csrf-token': 'CSRFSECRET',
        'proxy-authorization': 'Basic PROXYSECRET',
        'x-custom': 'visible-value',
      },
    });
    expect(res.status).toBe(500);
    const html = res.text;
    expect(html).toContain('<h2>Error: Error: query failed: password=hunter2</h2>');
    expect(html).toContain('<h2>Caused by: Error: connection refused by db.internal:5432</h2>');
    expect(html).toContain('<h2>Caused by: TypeError: socket closed</h2>');
    expect(html).toMatch(/<pre>Error: query failed: password=hunter2\n\s+at /);
    expect(html).toContain('<tr><th>Method</th><td>GET</td></tr>');
    expect(html).toContain('<tr><th>URL</th><td>/crash?token=[redacted]&amp;page=2</td></tr>');
    expect(html).toContain('<tr><th>Route</th><td>crash</td></tr>');
    expect(html).toContain('<tr><th>authorization</th><td>[redacted]</td></tr>');
    expect(html).toContain('<tr><th>cookie</th><td>[redacted]</td></tr>');
    expect(html).toContain('<tr><th>x-csrf-token</th><td>[redacted]</td></tr>');
    expect(html).toContain('<tr><th>proxy-authorization</th><td>[redacted]</td></tr>');
    expect(html).toContain('<tr><th>x-custom</th><td>visible-value</td></tr>');
    for (const secret of ['sk_live_SECRET', 'COOKIESECRET', 'CSRFSECRET', 'PROXYSECRET', 'abc123']) expect(html).not.toContain(secret);
  });

  it('the page names where a registered code is documented', async () => {
    const coded = () => {
      throw new BinderyError('BINDERY_UNKNOWN_ROUTE', 'No route is named "notes.shw".');
    };
    const server = await startServer({ debug: true, routes: [crashRoute], handlers: { crash: coded } });
    const res = await call(`${server.url}/crash`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(500);
    expect(res.text).toContain(
      '<h2>Error: BinderyError [BINDERY_UNKNOWN_ROUTE]: No route is named &quot;notes.shw&quot;.</h2>\n<p>Cause and fix: <code>docs/errors.md#bindery_unknown_route</code></p>',
    );
  });

  it('escapes what it shows', async () => {
    const server = await startServer({
      debug: true,
      routes: [crashRoute],
      handlers: {
        crash: () => {
          throw new Error('<script>alert(1)</script>');
        },
      },
    });
    const res = await call(`${server.url}/crash`, { headers: { accept: 'text/html' } });
    expect(res.text).not.toContain('<script>');
    expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('is refused in production at boot', async () => {
    const boot = createHttpServer({
      routes: [],
      handlers: {},
      services: {} as Services,
      environment: 'production',
      debug: true,
      maxBodyBytes: 1024,
      requestTimeoutMs: 1000,
    });
    await expect(boot).rejects.toBeInstanceOf(BinderyError);
    await expect(boot).rejects.toMatchObject({ code: 'BINDERY_DEBUG_IN_PRODUCTION' });
  });
});

describe('Errors | problem details or an HTML page, by client', () => {
  const cases: Array<[string, Record<string, string>, RequestInit['body'] | undefined, 'json' | 'html']> = [
    ['Accept: application/json', { accept: 'application/json' }, undefined, 'json'],
    ['Accept with a +json type', { accept: 'application/vnd.api+json' }, undefined, 'json'],
    ['a JSON body', { 'content-type': 'application/json', accept: '*/*' }, '{}', 'json'],
    ['X-Requested-With: XMLHttpRequest', { 'x-requested-with': 'XMLHttpRequest' }, undefined, 'json'],
    ['a browser', { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }, undefined, 'html'],
    ['no Accept (curl)', { accept: '*/*' }, undefined, 'html'],
    ['application/json refused with q=0', { accept: 'text/html, application/json;q=0' }, undefined, 'html'],
    ['a bearer token, no Accept (curl -H "Authorization: Bearer …")', { authorization: 'Bearer 1|abc', accept: '*/*' }, undefined, 'json'],
    ['a bearer token, scheme in lower case', { authorization: 'bearer 1|abc' }, undefined, 'json'],
    ['a bearer token with a browser Accept', { authorization: 'Bearer 1|abc', accept: 'text/html,*/*;q=0.8' }, undefined, 'json'],
    ['a token of a custom scheme (Authorization: Token …)', { authorization: 'Token 1|abc', accept: '*/*' }, undefined, 'json'],
    ["Basic credentials (a browser's own HTTP authentication)", { authorization: 'Basic dTpw', accept: 'text/html' }, undefined, 'html'],
    ['Digest credentials', { authorization: 'Digest username="u"', accept: '*/*' }, undefined, 'html'],
  ];
  it.each(cases)('%s', async (_label, headers, body, kind) => {
    const server = await startServer({ routes: [route({ name: 'boom', method: 'POST', path: '/boom' })], handlers: { boom: crash } });
    const res = await call(`${server.url}/boom`, { method: 'POST', headers, ...(body === undefined ? {} : { body }) });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe(kind === 'json' ? 'application/problem+json; charset=utf-8' : 'text/html; charset=utf-8');
  });

  it('a bearer token gets problem details for a path that matches no route (404 before routing) too', async () => {
    const server = await startServer({ routes: [crashRoute], handlers: { crash } });
    const res = await call(`${server.url}/nowhere`, { headers: { authorization: 'Bearer 1|abc', accept: '*/*' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(res.json()).toMatchObject({ status: 404, title: 'Not Found' });
  });
});

describe('Errors | 499: the client went away', () => {
  it('is logged with status 499 and nothing is written', async () => {
    const entered = deferred();
    const release = deferred();
    const closed = deferred();
    const server = await startServer({
      routes: [route({ name: 'slow', path: '/slow' })],
      handlers: {
        slow: async (_input: unknown, ctx: { reply: { raw: NodeJS.EventEmitter } }) => {
          ctx.reply.raw.once('close', () => closed.resolve());
          entered.resolve();
          await release.promise;
          return { late: true };
        },
      },
    });
    const req = httpRequest(`${server.url}/slow`, { headers: { 'x-request-id': 'gone-1' } });
    req.on('error', () => {});
    req.end();
    await entered.promise;
    req.destroy();
    await closed.promise;
    release.resolve();
    const line = await waitFor(() => server.logs.find((l) => l.code === 'BINDERY_CLIENT_CLOSED_REQUEST'), 3000, 'the 499 log line');
    expect(line).toMatchObject({
      reqId: 'gone-1',
      res: { statusCode: 499 },
      msg: 'client closed the connection before the response was written; nothing was written',
    });
    expect(server.logs.some((l: LogLine) => l.level >= ERROR)).toBe(false);
  });
});

describe('Errors | the response had already started', () => {
  it('logs the error and aborts the connection', async () => {
    const server = await startServer({
      routes: [route({ name: 'stream', path: '/stream', result: 'custom' })],
      handlers: {
        stream: () =>
          respond(async (reply) => {
            reply.raw.writeHead(200, { 'content-type': 'text/plain' });
            reply.raw.write('partial ');
            await new Promise((r) => setTimeout(r, 20));
            throw new Error('the stream broke');
          }),
      },
    });
    const outcome = await new Promise<{ status: number; body: string; aborted: boolean }>((resolve) => {
      const req = httpRequest(`${server.url}/stream`, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => {
          body += c.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, aborted: false }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0, body, aborted: true }));
        res.on('aborted', () => resolve({ status: res.statusCode ?? 0, body, aborted: true }));
      });
      req.on('error', () => resolve({ status: 0, body: '', aborted: true }));
      req.end();
    });
    expect(outcome).toEqual({ status: 200, body: 'partial ', aborted: true });
    const line = await waitFor(() => server.logs.find((l) => l.code === 'BINDERY_RESPONSE_ABORTED'));
    expect(line.level).toBe(ERROR);
    expect((line.err as { message: string }).message).toBe('the stream broke');
  });

  it('a custom responder that writes nothing is a 500', async () => {
    const server = await startServer({
      routes: [route({ name: 'mute', path: '/mute', result: 'custom' })],
      handlers: { mute: () => respond(() => {}) },
    });
    const res = await call(`${server.url}/mute`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(500);
    expect(server.logs.find((l) => l.code === 'BINDERY_EMPTY_RESPONSE')).toBeDefined();
  });
});

describe('Errors | request timeout: 503', () => {
  it('answers 503 when the handler runs past HTTP_REQUEST_TIMEOUT, and drops its late result', async () => {
    const release = deferred();
    const server = await startServer({
      requestTimeoutMs: 100,
      // The handler's deadline is under test: the deadline for the request's
      // own arrival (HTTP_BODY_TIMEOUT, by default the same) is kept out of
      // the way, so that a loaded machine cannot answer 408 first.
      bodyTimeoutMs: 10_000,
      routes: [route({ name: 'hang', path: '/hang' })],
      handlers: {
        hang: async () => {
          await release.promise;
          return { late: true };
        },
      },
    });
    const started = Date.now();
    const res = await call(`${server.url}/hang`, { headers: { accept: 'application/json' } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(res.status).toBe(503);
    expect(res.json()).toMatchObject({
      title: 'Service Unavailable',
      status: 503,
      detail: 'The request took longer than 100ms (HTTP_REQUEST_TIMEOUT).',
    });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    release.resolve();
    const dropped = await waitFor(() =>
      server.logs.find((l) => l.msg === 'route "hang" finished after the request timed out; its result was dropped'),
    );
    expect(dropped.reqId).toBe(res.headers.get('x-request-id'));
    expect(server.logs.find((l) => l.level === ERROR && l.code === 'BINDERY_REQUEST_TIMEOUT')).toBeDefined();
  });

  it('renders an HTML page for browsers', async () => {
    const server = await startServer({
      requestTimeoutMs: 50,
      bodyTimeoutMs: 10_000,
      routes: [route({ name: 'hang', path: '/hang' })],
      handlers: { hang: () => new Promise(() => {}) },
    });
    const res = await call(`${server.url}/hang`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(503);
    expect(res.text).toContain('<h1>Service Unavailable</h1>');
  });
});

afterEach(closeAll);
