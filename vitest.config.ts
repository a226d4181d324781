import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'plugins/*/test/**/*.test.ts'],
    globalSetup: ['./test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Tests print what they skip and why; keep the output readable.
    reporters: ['default'],
  },
});
