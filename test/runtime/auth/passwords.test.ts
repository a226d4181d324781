/**
 * Password hashing (docs/spec.md 5.1 rule 9, 8 "password hash", "bcrypt check"):
 * argon2id 19 MiB / 2 passes / 1 lane, bcrypt verification of the first 72
 * bytes, which hashes to upgrade, and at most one hash per CPU at a time.
 */
import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import bcrypt from 'bcryptjs';
import { describe, expect, it, vi } from 'vitest';
import { PasswordHasher } from '../../../runtime/auth/index.js';
import { Semaphore } from '../../../runtime/auth/passwords/semaphore.js';
import { ARGON2_DEFAULTS, hashKind } from '../../../runtime/auth/passwords/password-hasher.js';

const hasher = new PasswordHasher();

describe('PasswordHasher | argon2id', () => {
  it('hashes with argon2id, 19 MiB, 2 passes, 1 lane, a fresh salt each time', async () => {
    const a = await hasher.hash('pässwörd ✓');
    const b = await hasher.hash('pässwörd ✓');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(ARGON2_DEFAULTS).toEqual({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    expect(await hasher.verify(a, 'pässwörd ✓')).toBe(true);
    expect(await hasher.verify(a, 'passwörd ✓')).toBe(false);
    expect(hasher.needsUpgrade(a)).toBe(false);
  });

  it('verifies argon2 hashes of other costs and variants, and upgrades only the weaker ones', async () => {
    const weak = await argon2.hash('pw', { type: argon2.argon2id, memoryCost: 4096, timeCost: 3, parallelism: 1 });
    const fewerPasses = await argon2.hash('pw', { type: argon2.argon2id, memoryCost: 19_456, timeCost: 1, parallelism: 1 });
    const stronger = await argon2.hash('pw', { type: argon2.argon2id, memoryCost: 32_768, timeCost: 3, parallelism: 2 });
    const argon2i = await argon2.hash('pw', { type: argon2.argon2i, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    for (const h of [weak, fewerPasses, stronger, argon2i]) expect(await hasher.verify(h, 'pw')).toBe(true);
    expect(hasher.needsUpgrade(weak)).toBe(true);
    expect(hasher.needsUpgrade(fewerPasses)).toBe(true);
    expect(hasher.needsUpgrade(stronger)).toBe(false);
    expect(hasher.needsUpgrade(argon2i)).toBe(true);
    expect(hashKind(argon2i)).toBe('argon2-other');
  });

  it('a malformed or unknown hash is false, never an error', async () => {
    for (const h of ['', 'plain text', '$argon2id$v=19$m=19456,t=2,p=1$bad', '$2y$10$tooshort', '$5$rounds=5000$salt$hash']) {
      expect(await hasher.verify(h, 'pw')).toBe(false);
      expect(hasher.needsUpgrade(h)).toBe(true);
    }
  });
});

describe('PasswordHasher | legacy bcrypt', () => {
  it('verifies $2a$, $2b$ and $2y$ hashes and always upgrades them', async () => {
    const b = bcrypt.hashSync('legacy password', 4);
    for (const prefix of ['$2a$', '$2b$', '$2y$']) {
      const h = prefix + b.slice(4);
      expect(hashKind(h)).toBe('bcrypt');
      expect(await hasher.verify(h, 'legacy password')).toBe(true);
      expect(await hasher.verify(h, 'legacy passwore')).toBe(false);
      expect(hasher.needsUpgrade(h)).toBe(true);
    }
  });

  it('only the first 72 bytes count (UTF-8 bytes, not characters)', async () => {
    const base = 'x'.repeat(72);
    const h = bcrypt.hashSync(`${base}first tail`, 4);
    expect(await hasher.verify(h, `${base}another tail`)).toBe(true);
    expect(await hasher.verify(h, base)).toBe(true);
    expect(await hasher.verify(h, 'x'.repeat(71))).toBe(false);
    // 36 two-byte characters are 72 bytes.
    const wide = 'é'.repeat(36);
    const hw = bcrypt.hashSync(`${wide}é`, 4);
    expect(await hasher.verify(hw, `${wide}ü`)).toBe(true);
    expect(await hasher.verify(hw, 'é'.repeat(35))).toBe(false);
  });
});

describe('PasswordHasher | at most one hash per CPU at a time', () => {
  it('the semaphore lets `permits` tasks run at once and queues the rest in order', async () => {
    const gate = new Semaphore(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const task = (i: number) =>
      gate.run(async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        order.push(i);
        running--;
        return i;
      });
    expect(await Promise.all([0, 1, 2, 3, 4, 5].map(task))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
    expect(order.slice(0, 2).sort()).toEqual([0, 1]);
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });

  it('a task that fails releases its permit', async () => {
    const gate = new Semaphore(1);
    await expect(
      gate.run(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await gate.run(async () => 'next')).toBe('next');
  });

  it('hashes and verifications beyond the limit wait: argon2 never runs more than `concurrency` at once', async () => {
    const original = argon2.hash;
    let running = 0;
    let peak = 0;
    const spy = vi.spyOn(argon2, 'hash').mockImplementation((async (...args: Parameters<typeof original>) => {
      running++;
      peak = Math.max(peak, running);
      try {
        return await original(...args);
      } finally {
        running--;
      }
    }) as typeof original);
    try {
      for (const concurrency of [1, availableParallelism()]) {
        peak = 0;
        const limited = new PasswordHasher({ concurrency, params: { memoryCost: 1024, timeCost: 1, parallelism: 1 } });
        const hashes = await Promise.all(Array.from({ length: 8 }, (_, i) => limited.hash(`pw${i}`)));
        expect(new Set(hashes).size).toBe(8);
        expect(peak).toBe(concurrency);
      }
    } finally {
      spy.mockRestore();
    }
  });
});

describe('PasswordHasher | dummy hash', () => {
  it('is an argon2id hash of the current cost, made once', async () => {
    const h = new PasswordHasher();
    const d = await h.dummyHash();
    expect(d).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await h.dummyHash()).toBe(d);
  });
});
