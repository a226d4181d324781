/**
 * scripts/ensure-chromium.mjs (docs/pages.md "Browser tests"): nothing to do
 * when Chromium is there; a reason printed, and exit 0, when it cannot be
 * installed. (The install branch itself runs for real in `npm test`'s
 * pretest on a machine without Chromium.)
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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

  it('says why browser tests will be skipped when it cannot install (no apt-get), exiting 0', () => {
    const r = run({ CHROMIUM_PATH: '/nonexistent/chromium', PATH: '/nonexistent' });
    expect(r.code).toBe(0);
    expect(r.out).toContain('/nonexistent/chromium is missing and apt-get is not available here; the browser tests will be skipped');
  });
});
