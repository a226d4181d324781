/**
 * Pages with sessions over real HTTP (docs/spec.md 4.5 "Pages are rendered into
 * a buffer", 4.6, 5.4): the masked token in the form and in
 * `hx-headers`, the cookie written with what rendering stored, flash on the
 * page, `Vary: HX-Request`, and a render error giving an error page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAll } from '../http/support/server.js';
import { Jar, setCookies } from '../session/support/jar.js';
import { startSessionServer, type SessionServer } from '../session/support/session-server.js';

let s: SessionServer;
beforeAll(async () => {
  s = await startSessionServer();
});
afterAll(async () => {
  await s?.manager.close();
  await closeAll();
});

const tokenIn = (html: string) => /name="_token" value="([A-Za-z0-9_-]{86})"/.exec(html)?.[1];

describe('Pages | CSRF token and session', () => {
  it('a first visit renders a masked token and sets the session cookie holding it', async () => {
    const jar = new Jar();
    const res = await jar.fetch(`${s.url}/s/page`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    const token = tokenIn(html);
    expect(token).toBeDefined();
    expect(setCookies(res)).toHaveLength(1);
    expect(res.headers.get('cache-control')).toBe('private');
    expect(res.headers.get('vary')).toBe('Cookie, HX-Request');
    const hx = /hx-headers="([^"]+)"/.exec(html)![1]!.replaceAll('&quot;', '"');
    const header = (JSON.parse(hx) as Record<string, string>)['X-CSRF-Token']!;
    expect(header).toMatch(/^[A-Za-z0-9_-]{86}$/);
    expect(header).not.toBe(token);
    // Both work for a post of that session.
    for (const t of [token!, header]) {
      const post = await jar.fetch(`${s.url}/csrf`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `_token=${t}`,
      });
      expect(post.status).toBe(204);
    }
  });

  it('every render masks anew', async () => {
    const jar = new Jar();
    const a = tokenIn(await (await jar.fetch(`${s.url}/s/page`)).text());
    const b = tokenIn(await (await jar.fetch(`${s.url}/s/page`)).text());
    expect(a).not.toBe(b);
  });

  it('a page on a route without the session middleware has no token and sets no cookie', async () => {
    const res = await fetch(`${s.url}/plain/page`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain('_token');
    expect(html).toContain('hx-headers="{}"');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('vary')).toBe('HX-Request');
  });

  it('shows the status message flashed by the previous request, once', async () => {
    const jar = new Jar();
    await jar.fetch(`${s.url}/s/flash?key=status&value=Note+created.`);
    expect(await (await jar.fetch(`${s.url}/s/page`)).text()).toContain('<p class="status">Note created.</p>');
    expect(await (await jar.fetch(`${s.url}/s/page`)).text()).not.toContain('class="status"');
  });
});

describe('Pages | a render error gives an error page, never half a page', () => {
  it('500 HTML error page without any of the view', async () => {
    const res = await fetch(`${s.url}/s/broken`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).not.toContain('must never reach');
    expect(html).toContain('An internal error occurred.');
    expect(s.logs.some((l) => l.code === 'BINDERY_VIEW_FAILED')).toBe(true);
  });

  it('the same for API clients, as problem details', async () => {
    const res = await fetch(`${s.url}/s/broken`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { detail: string }).detail).toBe('An internal error occurred.');
  });
});
