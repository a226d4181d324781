/**
 * Boot checks (routes ↔ handlers ↔ middleware, named by origin) and the
 * middleware onion, over real HTTP.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../../runtime/http/server.js';
import type { Services } from '../../../runtime/http/context.js';
import type { Middleware } from '../../../runtime/http/handler.js';
import type { HttpServerOptions } from '../../../runtime/http/server-options.js';
import { HttpError } from '../../../runtime/errors/http-error.js';
import { json, text } from '../../../runtime/results/result.js';
import { field, route } from './support/routes.js';
import { call, closeAll, postJson, startServer } from './support/server.js';

afterAll(closeAll);

const boot = (options: Pick<HttpServerOptions, 'routes' | 'handlers'> & Partial<HttpServerOptions>) =>
  createHttpServer({
    services: {} as Services,
    environment: 'testing',
    debug: false,
    maxBodyBytes: 1024,
    requestTimeoutMs: 1000,
    ...options,
  });

describe('Boot | the route table is checked before anything is served', () => {
  it('a route without a handler names the route and its origin', async () => {
    await expect(
      boot({
        routes: [route({ name: 'notes.show', path: '/notes/{id}', fields: [field('id', 'integer', { path: 'id' })] })],
        handlers: {},
      }),
    ).rejects.toMatchObject({
      code: 'BINDERY_ROUTE_WITHOUT_HANDLER',
      message:
        'test/notes.show.yaml:1:1: route "notes.show" has no handler; add a handler named "notes.show" to the handlers given to createHttpServer.',
    });
  });

  it('a handler without a route', async () => {
    await expect(
      boot({ routes: [route({ name: 'notes.list', path: '/notes' })], handlers: { 'notes.list': () => [], 'notes.lst': () => [] } }),
    ).rejects.toMatchObject({
      code: 'BINDERY_HANDLER_WITHOUT_ROUTE',
      message: 'A handler is named "notes.lst" but no route has that name (did you mean "notes.list"?).',
    });
  });

  it('a middleware name that was not provided', async () => {
    await expect(
      boot({
        routes: [route({ name: 'admin', path: '/admin', middleware: ['sesion'], group: 'member' })],
        handlers: { admin: () => ({}) },
        middleware: { session: async (_c, next) => next() },
      }),
    ).rejects.toMatchObject({
      code: 'BINDERY_MIDDLEWARE_MISSING',
      message:
        'test/admin.yaml:1:1: route "admin" uses the middleware "sesion" (group "member"), which was not provided (did you mean "session"?).',
    });
  });

  it('lists every problem at once', async () => {
    const error = await boot({
      routes: [
        route({ name: 'a', path: '/a/{id}' }),
        route({ name: 'b', path: '/b', result: 'page' }),
        route({ name: 'c', path: '/a/{x}' }),
      ],
      handlers: { a: () => ({}), b: () => ({}) },
    }).then(
      () => {
        throw new Error('the boot should fail');
      },
      (e: unknown) => e as Error & { code: string },
    );
    expect(error.code).toBe('BINDERY_ROUTE_INVALID');
    expect(error.message.split('\n')).toEqual([
      'The HTTP server cannot start (5 problems):',
      '  - [BINDERY_ROUTE_INVALID] test/a.yaml:1:1: route "a": the path parameter {id} has no input field with "path: id".',
      '  - [BINDERY_VIEWS_NOT_CONFIGURED] test/b.yaml:1:1: route "b" renders a page, but no views folder was given (viewsDir).',
      '  - [BINDERY_ROUTE_INVALID] test/c.yaml:1:1: route "c": GET /a/{x} is already served by route "a" (test/a.yaml:1:1).',
      '  - [BINDERY_ROUTE_INVALID] test/c.yaml:1:1: route "c": the path parameter {x} has no input field with "path: x".',
      '  - [BINDERY_ROUTE_WITHOUT_HANDLER] test/c.yaml:1:1: route "c" has no handler; add a handler named "c" to the handlers given to createHttpServer.',
    ]);
  });

  it('an unknown rule in a route is refused', async () => {
    const bad = route({ name: 'bad', path: '/bad' });
    const withRule = { ...bad, fields: [{ ...field('q', 'string', { query: 'q' }), rules: [{ name: 'distinc', params: [] }] }] };
    await expect(boot({ routes: [withRule], handlers: { bad: () => ({}) } })).rejects.toMatchObject({
      code: 'BINDERY_ROUTE_INVALID',
      message: 'test/bad.yaml:1:1: route "bad", field "q": unknown rule "distinc"; regenerate with "bindery generate".',
    });
  });

  it('a health path is reserved', async () => {
    await expect(boot({ routes: [route({ name: 'live', path: '/health/live' })], handlers: { live: () => ({}) } })).rejects.toMatchObject({
      code: 'BINDERY_ROUTE_INVALID',
    });
  });
});

describe('Middleware | koa-style onion around binding, validation and the handler', () => {
  const order: string[] = [];
  const trace =
    (name: string): Middleware =>
    async (ctx, next) => {
      order.push(`${name}:before`);
      const result = await next();
      order.push(`${name}:after`);
      ctx.reply.header(`x-${name}`, 'seen');
      return result;
    };
  const guard: Middleware = async (ctx, next) => (ctx.request.headers['x-key'] === 'open' ? next() : text('no key', 401));
  const wrap: Middleware = async (_ctx, next) => ({ wrapped: await next() });
  const rescue: Middleware = async (_ctx, next) => {
    try {
      return await next();
    } catch (err) {
      if (err instanceof HttpError && err.status === 422) return json({ rescued: err.fieldErrors }, 200);
      throw err;
    }
  };
  const twice: Middleware = async (_ctx, next) => {
    await next();
    return next();
  };

  const routes = [
    route({ name: 'traced', path: '/traced', middleware: ['outer', 'inner'] }),
    route({ name: 'guarded', path: '/guarded', middleware: ['guard'] }),
    route({ name: 'wrapped', path: '/wrapped', middleware: ['wrap'] }),
    route({
      name: 'rescued',
      method: 'POST',
      path: '/rescued',
      middleware: ['rescue'],
      fields: [field('n', 'integer', { json: 'n' }, ['max:1'])],
    }),
    route({ name: 'twice', path: '/twice', middleware: ['twice'] }),
  ];
  const handlers = {
    traced: () => {
      order.push('handler');
      return { ok: 1 };
    },
    guarded: () => ({ inside: true }),
    wrapped: () => ({ value: 1 }),
    rescued: () => ({ never: true }),
    twice: () => ({ once: true }),
  };
  const middleware = { outer: trace('outer'), inner: trace('inner'), guard, wrap, rescue, twice };

  it('runs in order around the handler and may set headers after next()', async () => {
    const server = await startServer({ routes, handlers, middleware });
    order.length = 0;
    const res = await call(`${server.url}/traced`);
    expect(res.json()).toEqual({ ok: 1 });
    expect(order).toEqual(['outer:before', 'inner:before', 'handler', 'inner:after', 'outer:after']);
    expect(res.headers.get('x-inner')).toBe('seen');
    expect(res.headers.get('x-outer')).toBe('seen');
  });

  it('short-circuits by returning a result without next()', async () => {
    const server = await startServer({ routes, handlers, middleware });
    const blocked = await call(`${server.url}/guarded`);
    expect(blocked.status).toBe(401);
    expect(blocked.text).toBe('no key');
    const open = await call(`${server.url}/guarded`, { headers: { 'x-key': 'open' } });
    expect(open.json()).toEqual({ inside: true });
  });

  it('transforms the result, and catches errors from binding and validation', async () => {
    const server = await startServer({ routes, handlers, middleware });
    expect((await call(`${server.url}/wrapped`)).json()).toEqual({ wrapped: { value: 1 } });
    const rescued = await postJson(`${server.url}/rescued`, { n: 5 });
    expect(rescued.status).toBe(200);
    expect(rescued.json()).toEqual({ rescued: { n: 'The n field must not be greater than 1.' } });
  });

  it('next() called twice is an error (500)', async () => {
    const server = await startServer({ routes, handlers, middleware });
    const res = await call(`${server.url}/twice`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(500);
    expect((server.logs.find((l) => l.level === 50)?.err as { message: string }).message).toBe(
      'Middleware #1 of route "twice" called next() more than once.',
    );
  });
});
