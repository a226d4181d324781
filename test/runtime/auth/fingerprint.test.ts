/**
 * The password fingerprint kept in the session (docs/spec.md 2.3, 3 "password
 * changed"): an HMAC of the hash under the app key — never the hash — that
 * changes with the hash and survives key rotation.
 */
import { describe, expect, it } from 'vitest';
import { PasswordFingerprints } from '../../../runtime/auth/password-fingerprint.js';
import { decodeAppKey, generateAppKey } from '../../../runtime/config/app-key.js';
import { KeyRing } from '../../../runtime/crypto/key-ring.js';

const key = () => (decodeAppKey(generateAppKey()) as { key: Buffer }).key;
const HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g';

describe('PasswordFingerprints', () => {
  it('is 128 bits of base64url, the same for the same hash and key, different for another hash or key', () => {
    const k = key();
    const fp = new PasswordFingerprints(new KeyRing(k));
    const a = fp.of(HASH);
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(fp.of(HASH)).toBe(a);
    expect(fp.of(`${HASH}x`)).not.toBe(a);
    expect(new PasswordFingerprints(new KeyRing(key())).of(HASH)).not.toBe(a);
    expect(HASH).not.toContain(a);
  });

  it('matches under the current key, or a previous one after rotation; anything else is no match', () => {
    const old = key();
    const before = new PasswordFingerprints(new KeyRing(old)).of(HASH);
    const rotated = new PasswordFingerprints(new KeyRing(key(), [old]));
    expect(rotated.match(before, HASH)).toBe('previous');
    expect(rotated.match(rotated.of(HASH), HASH)).toBe('current');
    expect(rotated.match(before, `${HASH}x`)).toBe(false);
    expect(rotated.match(null, HASH)).toBe(false);
    expect(rotated.match('', HASH)).toBe(false);
    expect(rotated.match('not base64url!', HASH)).toBe(false);
    expect(new PasswordFingerprints(new KeyRing(key())).match(before, HASH)).toBe(false);
  });
});
