/**
 * The cookie driver (the default; SPEC.md 2.3, 5.3): the whole session,
 * encrypted, in the cookie. Nothing is kept on the server, so a copy of the
 * cookie made before logout keeps working until it expires (SPEC 5.1 rule 7).
 */
import { parseRecord, serializeRecord, type SessionRecord } from '../session-record.js';
import { TOO_LARGE, type SessionDriver, type SessionStore } from '../session-store.js';

/** Encryption purpose of session cookies. */
export const SESSION_PURPOSE = 'session';

/** `SESSION_DRIVER=cookie`. */
export const cookieDriver: SessionDriver = (ctx) => {
  const { encrypter, cookieName, maxCookieBytes } = ctx;
  const options = { context: cookieName };
  const store: SessionStore = {
    eager: false,
    read(cookieValue) {
      const opened = encrypter.open(SESSION_PURPOSE, cookieValue, options);
      return opened === null ? null : parseRecord(opened.plaintext.toString('utf8'));
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
