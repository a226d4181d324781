import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One embedded PostgreSQL (or DATABASE_URL) for the run; each test file gets its own database.
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // clipanion's ESM build imports a directory, which Node's own loader refuses; let vite resolve it.
    server: { deps: { inline: ['clipanion'] } },
  },
});
