/**
 * Translated problem details of the reference app (docs/i18n.md): the locale
 * negotiated from `Accept-Language` words the title, the detail and the
 * field errors (with the attribute names of lang/de/attributes.yaml);
 * English stays as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootReferenceKit, type ReferenceKit } from './kit-support.js';

let t: ReferenceKit;

beforeAll(async () => {
  t = await bootReferenceKit('i18nnotes');
});
afterAll(async () => {
  await t?.close();
});

function post(body: unknown, headers: Record<string, string>) {
  return fetch(`${t.url}/notes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe('i18n | problem details of POST /notes', () => {
  it('Accept-Language: de gives a German 422 with Content-Language: de and Vary: Accept-Language', async () => {
    const res = await post({ title: '', tags: ['a', 'a'] }, { 'accept-language': 'de' });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-language')).toBe('de');
    expect(res.headers.get('vary')).toContain('Accept-Language');
    const problem = (await res.json()) as Record<string, unknown>;
    expect(problem).toEqual({
      type: 'about:blank',
      title: 'Nicht verarbeitbarer Inhalt',
      status: 422,
      detail: 'Die übermittelten Daten sind ungültig.',
      errors: {
        title: 'Das Feld Titel ist erforderlich.',
        tags: 'Das Feld Schlagwörter enthält einen doppelten Wert.',
      },
      request_id: res.headers.get('x-request-id'),
    });
  });

  it('de-AT matches de; an unknown language gets APP_LOCALE (en), unchanged English texts', async () => {
    const at = await post({ title: '' }, { 'accept-language': 'de-AT,de;q=0.9' });
    expect(at.headers.get('content-language')).toBe('de');
    const fr = await post({ title: 'x'.repeat(201) }, { 'accept-language': 'fr' });
    expect(fr.headers.get('content-language')).toBe('en');
    expect(await fr.json()).toMatchObject({
      title: 'Unprocessable Content',
      detail: 'The given data was invalid.',
      errors: { title: 'The title field must not be greater than 200 characters.' },
    });
  });

  it('a browser gets the error page in German', async () => {
    const res = await fetch(`${t.url}/does-not-exist`, { headers: { accept: 'text/html', 'accept-language': 'de' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-language')).toBe('de');
    const html = await res.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('<h1>Nicht gefunden</h1>');
    expect(html).toContain('Anfrage-ID:');
  });
});

describe('i18n | a plugin namespace (plugins/mailprovider/lang → mailprovider.*)', () => {
  it("the webhook's 401 detail comes from the plugin's catalog in the request's locale", async () => {
    const ask = (lang: string) =>
      fetch(`${t.url}/mailprovider/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'accept-language': lang },
        body: '{}',
      });
    const de = await ask('de');
    expect(de.status).toBe(401);
    expect(await de.json()).toMatchObject({ title: 'Nicht angemeldet', detail: 'Der Webhook braucht gültige HTTP-Basic-Zugangsdaten.' });
    const en = await ask('en');
    expect(await en.json()).toMatchObject({ title: 'Unauthorized', detail: 'The webhook needs valid HTTP Basic credentials.' });
  });
});
