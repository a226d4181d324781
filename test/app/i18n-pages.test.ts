/**
 * The reference app's other pages in German (docs/i18n.md "what is
 * translated"): the profile page of a user whose locale is de, the
 * forgot-password page for a German browser, the back office's home and a
 * list page for a German admin, and the two-factor lockout notice in the
 * owner's locale; English pages keep their texts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../runtime/auth/support/client.js';
import { updateReturning } from '../../runtime/db/portable-writes.js';
import { FRAMEWORK_LANG_DIR, I18n, loadCatalogs } from '../../runtime/i18n/index.js';
import { lockoutNoticeMail } from '../../runtime/auth/two-factor/lockout-notice.js';
import { bootReferenceApp, makeAccount, signIn, type ReferenceApp } from './tokens-support.js';

let a: ReferenceApp;

beforeAll(async () => {
  a = await bootReferenceApp('i18n_pages');
});
afterAll(async () => {
  await a?.close();
});

/** A signed-in browser of a new verified account, with `locale` stored (null: none) and admin when asked. */
async function account(locale: string | null, admin = false): Promise<Client> {
  const user = await makeAccount(a, { verified: true });
  await updateReturning(a.db, 'users', user.id, { locale, admin });
  return signIn(a, user);
}

describe('i18n | account pages', () => {
  it('the profile page of a user whose locale is de is German, with Content-Language: de', async () => {
    const res = await (await account('de')).page('/user/profile');
    expect(res.status).toBe(200);
    expect(res.headers['content-language']).toBe('de');
    expect(res.body).toContain('<html lang="de">');
    expect(res.body).toContain('<h1>Ihr Konto</h1>');
    expect(res.body).toContain('<label for="current_password">Aktuelles Passwort</label>');
    expect(res.body).toContain('<button type="submit">Passwort ändern</button>');
    expect(res.body).toContain('<a href="/user/profile">Konto</a>');
    expect(res.body).toContain('<title>Ihr Konto</title>');
    expect(res.body).not.toContain('Change password');
  });

  it('the profile page of a user without a locale stays English', async () => {
    const res = await (await account(null)).page('/user/profile');
    expect(res.headers['content-language']).toBe('en');
    expect(res.body).toContain('<h1>Your account</h1>');
    expect(res.body).toContain('<label for="current_password">Current password</label>');
    expect(res.body).toContain('<button type="submit">Change password</button>');
    expect(res.body).toContain('<li><a href="/user/sessions">Sessions and devices</a></li>');
  });

  it('the dashboard in German keeps the name in <strong> inside the translated sentence', async () => {
    const res = await (await account('de')).page('/dashboard');
    expect(res.status).toBe(200);
    expect(res.body).toMatch(/<p>Angemeldet als <strong>[^<]+<\/strong> \([^)]+\)\.<\/p>/);
    expect(res.body).toContain('<h2 id="api-tokens-title">API-Tokens</h2>');
  });

  it('the forgot-password page for a German browser is German; without Accept-Language it is English', async () => {
    const de = await new Client(a.url).send('GET', '/forgot-password', { headers: { accept: 'text/html', 'accept-language': 'de' } });
    expect(de.status).toBe(200);
    expect(de.headers['content-language']).toBe('de');
    expect(de.body).toContain('<h1>Passwort vergessen?</h1>');
    expect(de.body).toContain('<button type="submit">Link zum Zurücksetzen zuschicken</button>');
    const en = await new Client(a.url).page('/forgot-password');
    expect(en.headers['content-language']).toBe('en');
    expect(en.body).toContain('<h1>Forgot your password?</h1>');
    expect(en.body).toContain('<button type="submit">Email me a reset link</button>');
    expect(en.body).toContain('<a href="/login">Back to the login page</a>');
  });
});

describe('i18n | every other page renders in German', () => {
  it('passkeys, sessions, two-factor (after the password confirmation), reset-password, a new note and the user page: 200, German, no key shown', async () => {
    const browser = await account('de');
    const me = await browser.page('/dashboard');
    const userPath = /href="(\/users\/\d+)"/.exec(me.body)![1]!;
    const confirm = await browser.page('/user/confirm-password');
    expect(confirm.body).toContain('<h1>Passwort bestätigen</h1>');
    expect((await browser.form('/user/confirm-password', { password: 'correct horse battery' })).status).toBe(303);
    const pages: [string, string][] = [
      ['/user/passkeys', '<button type="button" data-passkey="register"'],
      ['/user/sessions', '<h1>Sitzungen und Geräte</h1>'],
      ['/user/two-factor-authentication', '<button type="submit">Einschalten</button>'],
      [userPath, '<dt>Mitglied seit</dt>'],
    ];
    for (const [path, text] of pages) {
      const res = await browser.page(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-language'], path).toBe('de');
      expect(res.body, path).toContain(text);
      expect(res.body, path).not.toMatch(/>app\.[a-z_.]+</);
    }
    const reset = await new Client(a.url).send('GET', '/reset-password?token=x', {
      headers: { accept: 'text/html', 'accept-language': 'de' },
    });
    expect(reset.status).toBe(200);
    expect(reset.body).toContain('<label for="password_confirmation">Neues Passwort bestätigen</label>');
    // The notes pages are public: a German browser's language decides.
    const note = await new Client(a.url).send('GET', '/notes/new', { headers: { accept: 'text/html', 'accept-language': 'de' } });
    expect(note.status).toBe(200);
    expect(note.headers['content-language']).toBe('de');
    expect(note.body).toContain('<button type="submit">Notiz anlegen</button>');
    expect(note.body).toContain('<label for="tags">Schlagwörter <small>(bis zu fünf; Buchstaben, Ziffern, - und _)</small></label>');
  });
});

describe('i18n | back office', () => {
  it('the home and a list page for an admin whose locale is de are German', async () => {
    const browser = await account('de', true);
    const home = await browser.page('/admin');
    expect(home.status).toBe(200);
    expect(home.headers['content-language']).toBe('de');
    expect(home.body).toContain('<html lang="de">');
    expect(home.body).toContain('<h1>Verwaltung</h1>');
    expect(home.body).toContain('<th>Bereich</th><th class="num">Zeilen</th>');
    expect(home.body).toContain('>Aktivität</a>');
    const list = await browser.page('/admin/documents');
    expect(list.status).toBe(200);
    expect(list.headers['content-language']).toBe('de');
    expect(list.body).toContain('<button type="submit">Anwenden</button>');
    expect(list.body).toContain('Auswahl löschen');
    expect(list.body).toMatch(/<span>Seite 1 von \d+<\/span>/);
    const activity = await browser.page('/admin/activity');
    expect(activity.status).toBe(200);
    expect(activity.body).toContain('<h1>Aktivität</h1>');
    expect(activity.body).toContain('<button type="submit">Filtern</button>');
    const history = await browser.page('/admin/documents/987654/history');
    expect(history.status).toBe(200);
    expect(history.body).toContain('<h1>Verlauf von');
    expect(history.body).toContain('gibt es nicht mehr (endgültig gelöscht oder nie angelegt); ihre Einträge bleiben.');
  });

  it("the back office's status messages follow the admin's locale", async () => {
    const german = await account('de', true);
    await german.page('/admin/documents');
    const none = await german.form('/admin/documents/bulk', { action: 'delete' });
    expect(none.status).toBe(303);
    expect((await german.page(none.location!)).body).toContain('Keine Zeilen ausgewählt.');
    const english = await account(null, true);
    await english.page('/admin/documents');
    const again = await english.form('/admin/documents/bulk', { action: 'delete' });
    expect((await english.page(again.location!)).body).toContain('No rows selected.');
  });

  it('the same pages for an English admin keep their texts', async () => {
    const browser = await account(null, true);
    const home = await browser.page('/admin');
    expect(home.headers['content-language']).toBe('en');
    expect(home.body).toContain('<h1>Back office</h1>');
    expect(home.body).toContain('<th>Section</th><th class="num">Rows</th><th class="num">Deleted</th>');
    const list = await browser.page('/admin/documents');
    expect(list.body).toContain('<button type="submit">Apply</button>');
    expect(list.body).toContain('Delete selected');
    expect(list.body).toMatch(/<span>Page 1 of \d+<\/span>/);
  });
});

describe('i18n | the two-factor lockout notice', () => {
  const i18n = new I18n({
    catalogs: loadCatalogs([{ dir: FRAMEWORK_LANG_DIR, owner: 'bindery' }]),
    locales: ['en', 'de'],
    defaultLocale: 'en',
    fallbackLocale: 'en',
  });

  it('is German for an owner whose locale is de, and English as before without one or without i18n()', () => {
    const de = lockoutNoticeMail('bindery', 'ada@example.test', { i18n, locale: 'de' });
    expect(de.subject).toBe('Falsche Zwei-Faktor-Codes für Ihr Konto bei bindery');
    expect(de.text).toContain('5 falsche Zwei-Faktor-Codes');
    const plain = lockoutNoticeMail('bindery', 'ada@example.test');
    expect(lockoutNoticeMail('bindery', 'ada@example.test', { i18n, locale: null })).toEqual(plain);
    expect(plain.subject).toBe('Wrong two-factor codes for your bindery account');
  });
});
