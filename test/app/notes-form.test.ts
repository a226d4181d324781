/**
 * The notes form end to end (docs/spec.md 4.3, 7 rule 6): the
 * real app (session() and assets() in its setup), generated routes with
 * [session, csrf], real HTTP, real PostgreSQL, through the test kit
 * (docs/testing.md): a browser reads the form and posts it by route name.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestCaller } from 'bindery/testing';
import type { Handlers } from '../../generated/handlers.js';
import { decodeAppKey, generateAppKey } from '../../runtime/config/app-key.js';
import { Encrypter } from '../../runtime/crypto/encrypter.js';
import { KeyRing } from '../../runtime/crypto/key-ring.js';
import { parseRecord } from '../../runtime/session/session-record.js';
import { parseSetCookie } from '../runtime/session/support/jar.js';
import { bootReferenceKit, type ReferenceKit } from './kit-support.js';

const KEY = generateAppKey();
let t: ReferenceKit;
type Browser = TestCaller<Handlers>;

beforeAll(async () => {
  t = await bootReferenceKit('notesform', { env: { APP_KEY: KEY } });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.db.deleteFrom('notes').execute();
});

const NAVIGATE = {
  'content-type': 'application/x-www-form-urlencoded',
  accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
  'sec-fetch-site': 'same-origin',
};

/** Open the form like a browser: the session cookie and the form's token (kept by the browser for its next form). */
async function openForm(browser: Browser): Promise<{ html: string; token: string }> {
  const res = await browser.page('/notes/new');
  expect(res.status).toBe(200);
  return { html: res.text, token: browser.csrfToken! };
}

/** Post the notes form (the token of the last page read, Referer: that page). */
function submit(browser: Browser, fields: Record<string, string | string[]>) {
  return browser.request('notes.create', fields, { form: true });
}

/** The browser's cookies as a `Cookie` header. */
const cookieHeader = (browser: Browser) => [...browser.cookies!].map(([n, v]) => `${n}=${v}`).join('; ');

/** POST a failing form with a `Referer` as given (raw HTTP: fetch would not send every value). */
function submitWithReferer(browser: Browser, token: string, referer: string): Promise<{ status: number; location: string | undefined }> {
  const body = new URLSearchParams([
    ['_token', token],
    ['title', ''],
  ]).toString();
  const url = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/notes',
        headers: { ...NAVIGATE, origin: t.url, cookie: cookieHeader(browser), referer, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function sessionOf(browser: Browser) {
  const opened = new Encrypter(new KeyRing((decodeAppKey(KEY) as { key: Buffer }).key)).open(
    'session',
    browser.cookies!.get('app_session')!,
    { context: 'app_session' },
  )!;
  return parseRecord(opened.plaintext.toString('utf8'))!;
}

describe('notes.new | the form page', () => {
  it('carries the masked token in a hidden field and in hx-headers, links the hashed stylesheet, and sets the session cookie', async () => {
    const res = await t.browser().send('GET', '/notes/new');
    const html = res.text;
    expect(html).toMatch(/<input type="hidden" name="_token" value="[A-Za-z0-9_-]{86}">/);
    expect(html).toMatch(/<body hx-headers="\{&quot;X-CSRF-Token&quot;:&quot;[A-Za-z0-9_-]{86}&quot;\}">/);
    expect(html).toMatch(/<link rel="stylesheet" href="\/assets\/app\.css\?v=[0-9a-f]{16}">/);
    const [cookie] = res.headers.getSetCookie().map(parseSetCookie);
    expect(cookie).toMatchObject({ name: 'app_session', attributes: { httponly: '', samesite: 'Lax', path: '/', 'max-age': '7200' } });
    // The layout is worded in the negotiated locale (docs/i18n.md): the page varies with Accept-Language too.
    expect(res.headers.get('vary')).toBe('Accept-Language, Cookie, HX-Request');
    expect(res.headers.get('content-language')).toBe('en');
    const css = /href="(\/assets\/app\.css\?v=[0-9a-f]{16})"/.exec(html)![1]!;
    const asset = await t.browser().send('GET', css);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});

describe('notes.create | the form round trip', () => {
  it('a bad submission comes back to the form with the errors beside the fields and the values typed', async () => {
    const browser = t.browser();
    await openForm(browser);
    const res = await submit(browser, { title: 'Shopping <list>', body: 'milk & eggs', tags: ['food', 'not ok'], password: 'hunter2' });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/notes/new');
    expect(sessionOf(browser).flash._old).toEqual({ title: 'Shopping <list>', body: 'milk & eggs', tags: ['food', 'not ok'] });
    const { html } = await openForm(browser);
    expect(html).toContain('value="Shopping &lt;list&gt;"');
    expect(html).toContain('>milk &amp; eggs</textarea>');
    expect(html).toContain('value="food"');
    expect(html).toContain('value="not ok"');
    expect(html).toContain(
      '<p class="error" id="tags-error">The tags.1 field must only contain letters, numbers, dashes, and underscores.</p>',
    );
    expect(html).not.toContain('hunter2');
    expect(await t.db.selectFrom('notes').select('id').execute()).toEqual([]);
    // Readable once: the next visit is a clean form.
    const again = await openForm(browser);
    expect(again.html).not.toContain('class="error"');
    expect(again.html).not.toContain('Shopping');
  });

  it('the "untitled" check comes back the same way', async () => {
    const browser = t.browser();
    await openForm(browser);
    expect((await submit(browser, { title: 'Un Titled' })).status).toBe(303);
    const { html } = await openForm(browser);
    expect(html).toContain('The title field must not be &quot;untitled&quot;; give the note a real title.');
    expect(html).toContain('value="Un Titled"');
  });

  it('a crafted Referer never sends the browser off the site: only a local path of this host is used, else /', async () => {
    const browser = t.browser();
    const { token } = await openForm(browser);
    const host = new URL(t.url).host;
    const offSite = [
      `http://${host}//evil.example`,
      `http://${host}//evil.example/path?q=1`,
      `http://${host}/\\evil.example`,
      `http://${host}/\\/evil.example`,
      `http://${host}/%2F/x/..//evil.example`,
      `http://${host}/.//evil.example`,
      `http://${host}/a/..//evil.example`,
      'https://evil.example/notes/new',
      '//evil.example/notes/new',
      'javascript:alert(1)',
      `http://${host}@evil.example/notes`,
      `http://evil.example/${host}`,
      `http://${host}:1/notes/new`,
      'not a url',
    ];
    for (const referer of offSite) {
      const res = await submitWithReferer(browser, token, referer);
      expect(res.status, referer).toBe(303);
      const location = res.location!;
      expect(location.startsWith('/') && !location.startsWith('//') && !location.includes('\\'), `${referer} → ${location}`).toBe(true);
      expect(new URL(location, 'http://site.test').host, `${referer} → ${location}`).toBe('site.test');
    }
    // Encoded slashes stay a path here; an ordinary Referer still comes back.
    expect((await submitWithReferer(browser, token, `http://${host}/%2F%2Fevil.example`)).location).toBe('/%2F%2Fevil.example');
    expect((await submitWithReferer(browser, token, `http://${host}/notes/new?x=1`)).location).toBe('/notes/new?x=1');
  });

  it('a good submission creates the note and redirects to it with a status message', async () => {
    const browser = t.browser();
    await openForm(browser);
    const res = await submit(browser, { title: 'Groceries', body: 'milk', tags: ['home', ''] });
    expect(res.status).toBe(303);
    const location = res.location!;
    expect(location).toMatch(/^\/notes\/\d+$/);
    const html = (await browser.page(location)).text;
    expect(html).toContain('<h1>Groceries</h1>');
    expect(html).toContain('<p class="status" role="status">Note created.</p>');
    const row = await t.db.selectFrom('notes').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ title: 'Groceries', body: 'milk', tags: ['home'] });
  });

  it('a large post over the session size: the errors come back, the old input is dropped', async () => {
    const browser = t.browser();
    await openForm(browser);
    const res = await submit(browser, { title: 'Big', body: 'x'.repeat(10_001) });
    expect(res.status).toBe(303);
    expect(browser.cookies!.get('app_session')!.length).toBeLessThan(4096);
    const { html } = await openForm(browser);
    expect(html).toContain('The body field must not be greater than 10000 characters.');
    expect(html).not.toContain('value="Big"');
  });

  it('without the token: 403 page expired; from another site: 403 cross-origin', async () => {
    const browser = t.browser();
    await openForm(browser);
    const expired = await browser.send('POST', '/notes', { headers: NAVIGATE, body: 'title=x' });
    expect(expired.status).toBe(403);
    expect(expired.text).toContain('This page has expired. Reload the page and try again.');
    const { token } = await openForm(browser);
    const foreign = await browser.send('POST', '/notes', {
      headers: { ...NAVIGATE, 'sec-fetch-site': 'cross-site' },
      body: `title=x&_token=${token}`,
    });
    expect(foreign.status).toBe(403);
    expect(foreign.text).toContain('cross-origin request');
  });
});

describe('notes | API clients are unaffected', () => {
  it('curl-style JSON without a cookie: 201, no cookie, no Cache-Control, no Vary', async () => {
    const res = await t.request('notes.create', { title: 'From curl' }, { headers: { accept: '*/*' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('cache-control')).toBeNull();
    expect(res.headers.get('vary')).toBeNull();
    const bad = await t.request('notes.create', { title: '' }, { headers: { accept: 'text/html' } });
    expect(bad.status).toBe(422);
  });
});
