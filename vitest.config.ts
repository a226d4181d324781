import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'plugins/*/test/**/*.test.ts'],
    globalSetup: ['./test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // clipanion's ESM build imports a directory ('../platform'), which Node's
    // own loader refuses; let vite resolve it (setup steps and plugins carry
    // CLI commands, so tests that boot apps load clipanion).
    server: { deps: { inline: ['clipanion'] } },
    // Tests print what they skip and why; keep the output readable.
    reporters: ['default'],
  },
});
