/**
 * `bindery lang:missing [locale]` (docs/i18n.md "Checks") as a child
 * process, on a fixture app whose German catalog lacks one key.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';

const cwd = fileURLToPath(new URL('./fixtures/lang-app/', import.meta.url));

describe('bindery lang:missing', () => {
  it('lists the key de lacks compared with en and exits 1', async () => {
    const run = await runCli(['lang:missing', 'de', '--app', 'lang-app.ts'], { cwd });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('de: 1 key missing (compared with en):\n  shop.checkout\n');
  });

  it('exits 0 for a complete locale (en against itself is never listed; --fallback de finds nothing de has that en lacks)', async () => {
    const run = await runCli(['lang:missing', 'en', '--fallback', 'de', '--app', 'lang-app.ts'], { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^en: complete \(\d+ keys of de\)\n$/);
  });
});
