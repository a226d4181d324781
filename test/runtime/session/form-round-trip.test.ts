/**
 * The form round trip over real HTTP (docs/spec.md 7 rule 6):
 * which requests go back to the form, where to, what is flashed, for how
 * long.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAll, rawRequest } from '../http/support/server.js';
import { Jar } from './support/jar.js';
import { startSessionServer, type SessionServer } from './support/session-server.js';

let s: SessionServer;
beforeAll(async () => {
  s = await startSessionServer();
});
afterAll(async () => {
  await s?.manager.close();
  await closeAll();
});

const BROWSER = {
  'content-type': 'application/x-www-form-urlencoded',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-site': 'same-origin',
};

/** A browser with a session and a token, posting the test form. */
async function browser(): Promise<{
  jar: Jar;
  post: (pairs: Array<[string, string]>, headers?: Record<string, string>) => Promise<Response>;
}> {
  const jar = new Jar();
  const { token } = (await (await jar.fetch(`${s.url}/s/token`)).json()) as { token: string };
  const post = (pairs: Array<[string, string]>, headers: Record<string, string> = {}) =>
    jar.fetch(`${s.url}/form`, {
      method: 'POST',
      headers: { ...BROWSER, ...headers },
      body: new URLSearchParams([['_token', token], ...pairs]).toString(),
    });
  return { jar, post };
}

async function state(jar: Jar): Promise<{ errors: Record<string, string>; old: Record<string, unknown> }> {
  return (await (await jar.fetch(`${s.url}/s/state`)).json()) as never;
}

describe('Form round trip | where the browser is sent', () => {
  it('303 to a Referer on this site (path and query)', async () => {
    const { post } = await browser();
    const res = await post([['title', '']], { referer: `${s.url}/notes/new?draft=1` });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/notes/new?draft=1');
  });

  it('303 to / for a Referer on another site, a malformed one, or none', async () => {
    const { post } = await browser();
    for (const referer of ['https://evil.example/notes/new', `${s.url.replace('127.0.0.1', 'localhost')}/x`, 'not a url', undefined]) {
      const res = await post([['title', '']], referer === undefined ? {} : { referer });
      expect(res.status, String(referer)).toBe(303);
      expect(res.headers.get('location'), String(referer)).toBe('/');
    }
  });

  it('a browser is Sec-Fetch-Mode: navigate, or Accept listing text/html; Accept: */* alone is not', async () => {
    // node:http, because fetch adds its own Sec-Fetch-Mode.
    const jar = new Jar();
    const { token } = (await (await jar.fetch(`${s.url}/s/token`)).json()) as { token: string };
    const send = (headers: Record<string, string>) =>
      rawRequest(`${s.url}/form`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header()!, ...headers },
        body: `_token=${token}&title=`,
      });
    expect((await send({ accept: '*/*', 'sec-fetch-mode': 'navigate' })).status).toBe(303);
    expect((await send({ accept: 'text/html' })).status).toBe(303);
    expect((await send({ accept: 'text/html;q=0' })).status).toBe(422);
    expect((await send({ accept: '*/*' })).status).toBe(422);
    expect((await send({})).status).toBe(422);
  });
});

describe('Form round trip | what is flashed, and for how long', () => {
  it('the field errors by client name in field order, and the posted values without _token, _method and secret-looking names', async () => {
    const { jar, post } = await browser();
    await post([
      ['title', 'much too long here'],
      ['tags', 'a'],
      ['tags', 'b'],
      ['tags', 'c'],
      ['tags', 'd'],
      ['note', 'kept'],
      ['password', 'hunter2'],
      ['api_token', 'tok'],
      ['secret_code', '1234'],
      ['Password_Confirmation', 'x'],
      ['_method', 'POST'],
    ]);
    const { errors, old } = await state(jar);
    expect(Object.keys(errors)).toEqual(['title', 'tags']);
    expect(errors).toEqual({
      title: 'The title field must not be greater than 10 characters.',
      tags: 'The tags field must not have more than 3 items.',
    });
    expect(old).toEqual({ title: 'much too long here', tags: ['a', 'b', 'c', 'd'], note: 'kept' });
  });

  it('errors and old input are readable for one request only', async () => {
    const { jar, post } = await browser();
    await post([['title', '']]);
    expect((await state(jar)).errors).toEqual({ title: 'The title field is required.' });
    expect(await state(jar)).toEqual({ errors: {}, old: {} });
  });

  it('a conversion failure (400 with field errors) comes back the same way, keeping the raw value typed', async () => {
    const { jar, post } = await browser();
    const res = await post([
      ['title', 'ok'],
      ['count', 'twelve'],
    ]);
    expect(res.status).toBe(303);
    expect(await state(jar)).toEqual({ errors: { count: 'The count field must be an integer.' }, old: { title: 'ok', count: 'twelve' } });
  });

  it('the flashed errors and old input reach the page, beside the field', async () => {
    const { jar, post } = await browser();
    await post([['title', 'much too long here']]);
    const html = await (await jar.fetch(`${s.url}/s/page`)).text();
    expect(html).toContain('<input name="title" value="much too long here">');
    expect(html).toContain('<p class="error">The title field must not be greater than 10 characters.</p>');
  });

  it('a valid post goes through (no round trip)', async () => {
    const { post } = await browser();
    const res = await post([['title', 'short']]);
    expect(res.status).toBe(200);
  });
});

describe('Form round trip | who gets 422 instead', () => {
  it('JSON clients (Accept JSON, or XMLHttpRequest) get the 422 problem details', async () => {
    const { jar, post } = await browser();
    for (const headers of [{ accept: 'application/json' }, { accept: 'text/html', 'x-requested-with': 'XMLHttpRequest' }] as Array<
      Record<string, string>
    >) {
      const res = await post([['title', '']], headers);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { errors: unknown }).errors).toEqual({ title: 'The title field is required.' });
    }
    expect(await state(jar)).toEqual({ errors: {}, old: {} });
  });

  it('plain htmx gets the 422 (with Vary: HX-Request); boosted htmx gets the 303', async () => {
    const { post } = await browser();
    const htmx = await post([['title', '']], { 'hx-request': 'true', 'sec-fetch-mode': 'cors' });
    expect(htmx.status).toBe(422);
    expect(htmx.headers.get('vary')).toMatch(/HX-Request/);
    const boosted = await post([['title', '']], { 'hx-request': 'true', 'hx-boosted': 'true', accept: '*/*', 'sec-fetch-mode': 'cors' });
    expect(boosted.status).toBe(303);
    expect(boosted.headers.get('vary')).toMatch(/HX-Request/);
  });

  it('errors other than validation are not round-tripped (a CSRF 403 stays a 403)', async () => {
    const jar = new Jar();
    await jar.fetch(`${s.url}/s/put?key=a&value=1`);
    const res = await jar.fetch(`${s.url}/form`, { method: 'POST', headers: BROWSER, body: 'title=' });
    expect(res.status).toBe(403);
  });
});
