/**
 * Encryption with the app key (docs/spec.md 2.3; runtime/crypto): AES-256-GCM
 * with per-value HKDF keys, purpose and context, key IDs and rotation.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Encrypter } from '../../../runtime/crypto/encrypter.js';
import { KeyRing, keyIdOf } from '../../../runtime/crypto/key-ring.js';

const k1 = randomBytes(32);
const k2 = randomBytes(32);

function flip(text: string, at: number): string {
  const body = Buffer.from(text, 'base64url');
  body[at] = body[at]! ^ 0x01;
  return body.toString('base64url');
}

describe('Encrypter | seal and open', () => {
  const enc = new Encrypter(new KeyRing(k1));

  it('round-trips text and bytes, naming the key', () => {
    const sealed = enc.seal('session', 'hello ✓', { context: 'app_session' });
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/);
    const opened = enc.open('session', sealed, { context: 'app_session' })!;
    expect(opened.plaintext.toString('utf8')).toBe('hello ✓');
    expect(opened).toMatchObject({ keyId: keyIdOf(k1), current: true });
    const bytes = randomBytes(100);
    expect(enc.open('x', enc.seal('x', bytes))!.plaintext.equals(bytes)).toBe(true);
  });

  it('uses a fresh salt and nonce per write: two seals of the same data differ from the 6th byte on', () => {
    const a = Buffer.from(enc.seal('session', 'same', { context: 'c' }), 'base64url');
    const b = Buffer.from(enc.seal('session', 'same', { context: 'c' }), 'base64url');
    expect(a.subarray(0, 5)).toEqual(b.subarray(0, 5)); // version and key ID
    expect(a.subarray(5, 21).equals(b.subarray(5, 21))).toBe(false); // salt
    expect(a.subarray(21).equals(b.subarray(21))).toBe(false);
  });

  it('refuses every tampered byte, a truncated value, extra characters and a non-canonical encoding', () => {
    const sealed = enc.seal('session', 'payload', { context: 'c' });
    const length = Buffer.from(sealed, 'base64url').length;
    for (let i = 0; i < length; i++) expect(enc.open('session', flip(sealed, i), { context: 'c' }), `byte ${i}`).toBeNull();
    for (const cut of [1, 10, sealed.length - 40, sealed.length - 1])
      expect(enc.open('session', sealed.slice(0, cut), { context: 'c' })).toBeNull();
    expect(enc.open('session', `${sealed}A`, { context: 'c' })).toBeNull();
    expect(enc.open('session', `${sealed}!`, { context: 'c' })).toBeNull();
    expect(enc.open('session', '', { context: 'c' })).toBeNull();
  });

  it('opens only for the same purpose and context (the cookie name is authenticated alongside)', () => {
    const sealed = enc.seal('session', 'payload', { context: 'app_session' });
    expect(enc.open('session', sealed, { context: '__Host-app_session' })).toBeNull();
    expect(enc.open('session', sealed)).toBeNull();
    expect(enc.open('remember', sealed, { context: 'app_session' })).toBeNull();
  });

  it('does not open with another key', () => {
    const sealed = enc.seal('session', 'payload');
    expect(new Encrypter(new KeyRing(k2)).open('session', sealed)).toBeNull();
  });

  it('refuses a malformed purpose (a programming error)', () => {
    expect(() => enc.seal('Session!', 'x')).toThrow(RangeError);
  });
});

describe('Encrypter | key rotation', () => {
  it('opens values of APP_PREVIOUS_KEYS as not current, and seals with APP_KEY only', () => {
    const old = new Encrypter(new KeyRing(k1)).seal('session', 'from before');
    const rotated = new Encrypter(new KeyRing(k2, [k1]));
    expect(rotated.open('session', old)).toMatchObject({ keyId: keyIdOf(k1), current: false });
    const fresh = rotated.seal('session', 'after');
    expect(rotated.open('session', fresh)).toMatchObject({ keyId: keyIdOf(k2), current: true });
    expect(new Encrypter(new KeyRing(k1)).open('session', fresh)).toBeNull();
  });

  it('ignores a previous key equal to the current one and refuses keys that are not 32 bytes', () => {
    expect(new KeyRing(k1, [k1, k2]).keys.map((k) => k.id)).toEqual([keyIdOf(k1), keyIdOf(k2)]);
    expect(() => new KeyRing(randomBytes(16))).toThrow(/32 bytes/);
  });

  it('builds the ring from loaded settings', () => {
    const ring = KeyRing.fromSettings({ APP_KEY: k2, APP_PREVIOUS_KEYS: [k1] });
    expect(ring.current.id).toBe(keyIdOf(k2));
    expect(ring.keys).toHaveLength(2);
  });
});

describe('Encrypter | JSON with expiry (tokens for the accounts layer)', () => {
  const enc = new Encrypter(new KeyRing(k1));

  it('round-trips a value and checks expiry against the given clock', () => {
    const token = enc.sealJson('verify-email', { user: '42', email: 'a@example.com' }, { expiresAt: 1_000_000 });
    expect(enc.openJson('verify-email', token, { now: 999_999 })).toMatchObject({
      ok: true,
      value: { user: '42', email: 'a@example.com' },
      expiresAt: 1_000_000,
    });
    expect(enc.openJson('verify-email', token, { now: 1_000_000 })).toEqual({ ok: false, reason: 'expired' });
    expect(enc.openJson('reset-password', token, { now: 0 })).toEqual({ ok: false, reason: 'invalid' });
    expect(enc.openJson('verify-email', `${token.slice(0, -2)}xx`)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('never expires without expiresAt', () => {
    const token = enc.sealJson('remember', ['7', 'token']);
    expect(enc.openJson('remember', token, { now: Number.MAX_SAFE_INTEGER })).toMatchObject({ ok: true, value: ['7', 'token'] });
  });
});
