/**
 * The cookie driver (the default; docs/spec.md 2.3, 5.3): the whole session,
 * encrypted, in the cookie. Nothing is kept on the server, so a copy of the
 * cookie made before logout keeps working until it expires (docs/spec.md 5.1 rule 7).
 */
import { parseRecord, serializeRecord, type SessionRecord } from '../session-record.js';
import { TOO_LARGE, type SessionDriver, type SessionStore } from '../session-store.js';

/** Encryption purpose of session cookies. */
export const SESSION_PURPOSE = 'session';

/** How many recently opened session cookies are kept decrypted (see {@link cookieDriver}). */
export const OPENED_COOKIES_KEPT = 1024;

/**
 * `SESSION_DRIVER=cookie`.
 *
 * A browser sends the same session cookie on every request until the
 * session changes or its last use is refreshed, so the plaintext of the
 * {@link OPENED_COOKIES_KEPT} most recently opened cookies is kept by
 * cookie value: a signed-in request then skips the key derivation and the
 * decryption (the record is still parsed afresh, and its lifetimes checked,
 * per request). A value that did not open is not kept.
 */
export const cookieDriver: SessionDriver = (ctx) => {
  const { encrypter, cookieName, maxCookieBytes } = ctx;
  const options = { context: cookieName };
  // Insertion-ordered: the first key is the least recently used.
  const opened = new Map<string, string>();
  const open = (cookieValue: string): string | null => {
    const kept = opened.get(cookieValue);
    if (kept !== undefined) {
      opened.delete(cookieValue);
      opened.set(cookieValue, kept);
      return kept;
    }
    const result = encrypter.open(SESSION_PURPOSE, cookieValue, options);
    if (result === null) return null;
    const plaintext = result.plaintext.toString('utf8');
    if (opened.size >= OPENED_COOKIES_KEPT) opened.delete(opened.keys().next().value!);
    opened.set(cookieValue, plaintext);
    return plaintext;
  };
  const store: SessionStore = {
    eager: false,
    read(cookieValue) {
      const plaintext = open(cookieValue);
      return plaintext === null ? null : parseRecord(plaintext);
    },
    write(record: SessionRecord) {
      const value = encrypter.seal(SESSION_PURPOSE, serializeRecord(record), options);
      // name=value, all ASCII: characters are bytes.
      return cookieName.length + 1 + value.length > maxCookieBytes ? TOO_LARGE : value;
    },
    revoke() {},
  };
  return store;
};
