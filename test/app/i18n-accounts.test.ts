/**
 * The reference app's account pages and mails in German (docs/i18n.md): the
 * register and login pages, a failed login (JSON and form), and the
 * verification and reset mails in the recipient's locale (the `locale` column), not
 * the request's, and the profile form storing that column.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '../runtime/auth/support/client.js';
import { updateReturning } from '../../runtime/db/portable-writes.js';
import {
  bootReferenceApp,
  clearCounters,
  makeAccount,
  newestMail,
  resetMailsSent,
  signIn,
  startWorker,
  type ReferenceApp,
} from './tokens-support.js';

let a: ReferenceApp;

beforeAll(async () => {
  a = await bootReferenceApp('i18n_accounts');
  // Reset mails are jobs: the worker runs in this process, as under `npm start`.
  await startWorker(a);
});
afterAll(async () => {
  await a?.close();
});
beforeEach(async () => {
  await clearCounters(a);
});

/** A browser whose language is German (`Accept-Language: de-DE,de;q=0.9,en;q=0.5`). */
class GermanBrowser extends Client {
  override send(method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}) {
    return super.send(method, path, { ...options, headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5', ...options.headers } });
  }
}

describe('i18n | register and login pages', () => {
  it('the register page in German: texts, <html lang="de">, Content-Language: de, Vary: Accept-Language', async () => {
    const res = await new GermanBrowser(a.url).page('/register');
    expect(res.status).toBe(200);
    expect(res.headers['content-language']).toBe('de');
    expect(String(res.headers.vary)).toContain('Accept-Language');
    expect(res.body).toContain('<html lang="de">');
    expect(res.body).toContain('<h1>Konto anlegen</h1>');
    expect(res.body).toContain('<label for="password_confirmation">Passwort bestätigen</label>');
    expect(res.body).toContain('Schon registriert?');
    expect(res.body).not.toContain('Create an account');
  });

  it('the register page without Accept-Language stays English', async () => {
    const res = await new Client(a.url).page('/register');
    expect(res.headers['content-language']).toBe('en');
    expect(res.body).toContain('<html lang="en">');
    expect(res.body).toContain('<h1>Create an account</h1>');
  });
});

describe('i18n | a failed login', () => {
  it('JSON: 422 problem details in German, the field error on email', async () => {
    const user = await makeAccount(a);
    const c = new GermanBrowser(a.url);
    await c.page('/login');
    const res = await c.json('POST', '/login', { email: user.email, password: 'wrong password' });
    expect(res.status).toBe(422);
    expect(res.headers['content-language']).toBe('de');
    expect(res.json()).toMatchObject({
      title: 'Nicht verarbeitbarer Inhalt',
      detail: 'Die übermittelten Daten sind ungültig.',
      errors: { email: 'Diese Zugangsdaten stimmen nicht mit unseren Daten überein.' },
    });
  });

  it('a form: back to the login page, which shows the German error and the German summary', async () => {
    const user = await makeAccount(a);
    const c = new GermanBrowser(a.url);
    await c.page('/login');
    const res = await c.form('/login', { email: user.email, password: 'wrong password' });
    expect(res.status).toBe(303);
    const page = await c.page(res.location!);
    expect(page.body).toContain('Diese Zugangsdaten stimmen nicht mit unseren Daten überein.');
    expect(page.body).toContain('Bitte korrigieren Sie das markierte Feld.');
    expect(page.body).toContain('<h1>Anmelden</h1>');
  });

  it('English keeps the English message', async () => {
    const user = await makeAccount(a);
    const c = new Client(a.url);
    await c.page('/login');
    const res = await c.json('POST', '/login', { email: user.email, password: 'wrong password' });
    expect(res.json()).toMatchObject({ errors: { email: 'These credentials do not match our records.' } });
  });
});

describe('i18n | mails in the recipient locale', () => {
  it('the verification mail of a user whose locale is de is German, though the request was English', async () => {
    const user = await makeAccount(a);
    const c = await signIn(a, user);
    // The user chose German after signing in; this browser still asks for English.
    await updateReturning(a.db, 'users', user.id, { locale: 'de' });
    await c.page('/dashboard');
    const res = await c.form('/verify-email/resend', {});
    expect(res.status).toBe(303);
    const mail = await newestMail(a, user.email);
    expect(mail?.subject).toBe('Bestätigen Sie Ihre E-Mail-Adresse für bindery');
    expect(mail?.text).toContain('Bitte bestätigen Sie diese Adresse über den folgenden Link:');
    expect(mail?.text).toContain('Der Link ist 24 Stunden gültig.');
    expect(mail?.html).toContain('Meine E-Mail-Adresse bestätigen');
  });

  it('a user without a locale gets the English mail (APP_LOCALE), byte for byte as before', async () => {
    const user = await makeAccount(a);
    const c = await signIn(a, user);
    await c.page('/dashboard');
    await c.form('/verify-email/resend', {});
    const mail = await newestMail(a, user.email);
    expect(mail?.subject).toBe('Verify your email address for bindery');
    expect(mail?.text).toMatch(
      /^Please confirm this address by opening the link below:\n\nhttp\S+\n\nThe link works for \d+ hours?\. If you did not create an account, ignore this mail\.\n$/,
    );
  });
});

describe('i18n | jobs use the recipient locale', () => {
  it('the password reset mail, sent by a job (no request), is German for a user whose locale is de', async () => {
    const user = await makeAccount(a);
    await updateReturning(a.db, 'users', user.id, { locale: 'de' });
    const c = new Client(a.url);
    await c.page('/forgot-password');
    expect((await c.form('/forgot-password', { email: user.email })).status).toBe(303);
    await resetMailsSent(a);
    const mail = await newestMail(a, user.email);
    expect(mail?.subject).toBe('Setzen Sie Ihr Passwort für bindery zurück');
    expect(mail?.text).toContain('Der Link ist 1 Stunde gültig');
    expect(mail?.html).toContain('Mein Passwort zurücksetzen');
  });
});

describe("i18n | the signed-in user's locale column wins", () => {
  it('the profile form stores locale; later pages are German even for an English browser; an unknown locale is 422', async () => {
    const user = await makeAccount(a);
    const c = await signIn(a, user);
    await c.page('/user/profile');
    const saved = await c.json('PUT', '/user/profile-information', { name: user.name, email: user.email, locale: 'de' });
    expect(saved.status).toBe(200);
    expect((await a.db.selectFrom('users').select('locale').where('id', '=', user.id).executeTakeFirstOrThrow()).locale).toBe('de');
    const page = await c.send('GET', '/dashboard', { headers: { accept: 'text/html', 'accept-language': 'en' } });
    expect(page.headers['content-language']).toBe('de');
    expect(page.body).toContain('<html lang="de">');
    // Decided by the user's column, not negotiated: the page does not vary with Accept-Language.
    expect(String(page.headers.vary)).not.toContain('Accept-Language');
    const refused = await c.json(
      'PUT',
      '/user/profile-information',
      { name: user.name, email: user.email, locale: 'fr' },
      { 'accept-language': 'en' },
    );
    expect(refused.status).toBe(422);
    expect(refused.json()).toMatchObject({ errors: { locale: 'Der gewählte Wert für Sprache ist ungültig.' } });
    const cleared = await c.json('PUT', '/user/profile-information', { name: user.name, email: user.email, locale: '' });
    expect(cleared.status).toBe(200);
    expect((await a.db.selectFrom('users').select('locale').where('id', '=', user.id).executeTakeFirstOrThrow()).locale).toBeNull();
  });
});

describe('i18n | the email change mails in the owner locale', () => {
  it('a user whose locale is de gets both mails in German, asked from an English browser', async () => {
    const user = await makeAccount(a);
    await updateReturning(a.db, 'users', user.id, { locale: 'de' });
    const c = await signIn(a, user);
    await c.page('/user/profile');
    expect((await c.json('POST', '/user/confirm-password', { password: 'correct horse battery' })).status).toBe(201);
    const next = `next-${user.id}@example.test`;
    const res = await c.json('PUT', '/user/profile-information', { name: user.name, email: next }, { 'accept-language': 'en' });
    expect(res.status).toBe(200);
    const link = await newestMail(a, next);
    expect(link?.subject).toBe('Bestätigen Sie Ihre neue E-Mail-Adresse für bindery');
    expect(link?.html).toContain('Diese E-Mail-Adresse verwenden');
    const notice = await newestMail(a, user.email);
    expect(notice?.subject).toBe('Ihre E-Mail-Adresse bei bindery wird bald geändert');
    expect(notice?.html).toContain(`in <strong>${next}</strong> ändern`);
  });
});
