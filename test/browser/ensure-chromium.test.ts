/**
 * scripts/ensure-chromium.mjs (docs/pages.md "Browser tests"): nothing to do
 * when Chromium is there; a reason printed, and exit 0, when it cannot be
 * installed. (The install branch itself runs for real in `npm test`'s
 * pretest on a machine without Chromium.)
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/ensure-chromium.mjs', import.meta.url));

function run(env: Record<string, string>) {
  const r = spawnSync(process.execPath, [SCRIPT], { env: { ...env }, encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr };
}

describe('ensure-chromium | the install script', () => {
  it('does nothing when the binary exists', () => {
    const r = run({ CHROMIUM_PATH: process.execPath, PATH: process.env.PATH ?? '' });
    expect(r).toEqual({ code: 0, out: `ensure-chromium: ${process.execPath} is installed.\n` });
  });

  it('says why browser tests will fail when it cannot install (no apt-get), exiting 0', () => {
    const r = run({ CHROMIUM_PATH: '/nonexistent/chromium', PATH: '/nonexistent' });
    expect(r.code).toBe(0);
    expect(r.out).toContain('/nonexistent/chromium is missing and apt-get is not available here; the browser tests will fail');
  });

  // The install branch with a stand-in apt-get first on PATH (as root only: the script asks for root before apt-get).
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  /** A folder with an `apt-get` that logs its arguments and exits `status`; with `creates`, it makes the binary first. */
  function fakeApt(status: number, creates?: string) {
    const dir = mkdtempSync(join(tmpdir(), 'bindery-apt-'));
    dirs.push(dir);
    const log = join(dir, 'calls.log');
    writeFileSync(
      join(dir, 'apt-get'),
      `#!/bin/sh\necho "$*" >> ${log}\n${creates ? `touch ${creates}\n` : ''}echo "E: Could not get lock /var/lib/dpkg/lock-frontend" >&2\nexit ${status}\n`,
    );
    chmodSync(join(dir, 'apt-get'), 0o755);
    return { PATH: `${dir}:${process.env.PATH ?? ''}`, calls: () => readFileSync(log, 'utf8').trim().split('\n'), dir };
  }

  it.skipIf(!asRoot)(
    'waits for a held package lock (DPkg::Lock::Timeout) and, when apt-get fails, says the tests will fail only if they will',
    () => {
      const apt = fakeApt(100);
      const chromium = join(apt.dir, 'chromium');
      const failed = run({ CHROMIUM_PATH: chromium, PATH: apt.PATH });
      expect(failed.code).toBe(0);
      expect(apt.calls()).toEqual([
        '-o DPkg::Lock::Timeout=300 install -y --no-install-recommends chromium',
        '-o DPkg::Lock::Timeout=300 update',
      ]);
      expect(failed.out).toContain(
        `ensure-chromium: installing chromium failed (apt-get update exited 100); the browser tests will fail unless ${chromium} is installed before they start`,
      );

      // Another process installed it meanwhile: apt-get failed, yet the tests will run, and it says so.
      const raced = fakeApt(100, join(apt.dir, 'chromium-raced'));
      const later = run({ CHROMIUM_PATH: join(apt.dir, 'chromium-raced'), PATH: raced.PATH });
      expect(later.out).toContain(
        `but ${join(apt.dir, 'chromium-raced')} is installed now (by another process): the browser tests will run.`,
      );
      expect(later.out).not.toContain('will fail');
    },
  );
});
