import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defaultServerConditions, type Plugin } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';

// `bindery/<entry>` resolves to the TypeScript sources in this repository
// (the `bindery-source` export condition; docs/package.md). Without vite's
// bundler-only `module` condition: packages that list it first (the AWS SDK,
// OpenTelemetry) would resolve to builds Node's own loader cannot run, as
// Node never would.
const conditions = ['bindery-source', ...defaultServerConditions.filter((c) => c !== 'module')];

// `bindery/<entry>` imported from an example's files resolves as if imported
// here: to this checkout's sources, even when the example has a packed copy
// of bindery in its own node_modules (after `npm install` inside it), which
// would otherwise win and run stale code.
const HERE = fileURLToPath(import.meta.url);
const binderySelf: Plugin = {
  name: 'bindery-self-reference',
  enforce: 'pre',
  resolveId(source, importer, options) {
    if (importer === undefined || importer === HERE || !/^bindery(?:\/|$)/.test(source) || !importer.includes('/examples/')) return null;
    return this.resolve(source, HERE, { ...options, skipSelf: true });
  },
};

/** What both projects run with (each project is its own vite server: plugins and resolution are per project). */
export const shared = {
  plugins: [binderySelf],
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['bindery-source'] } },
};
/** The test options both projects run with (also test/tooling/fixtures/red-run/vitest.config.ts). */
export const sharedTest = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
  // clipanion's ESM build imports a directory ('../platform'), which Node's
  // own loader refuses; let vite resolve it (setup steps and plugins carry
  // CLI commands, so tests that boot apps load clipanion).
  server: { deps: { inline: ['clipanion'] } },
};

/**
 * The type-level tests (`npm run test:types`, `vitest run --typecheck.only`)
 * are the `postgres` project's: vitest hands no `--typecheck` option of its
 * command line to projects, so the project reads it.
 */
const TYPECHECK_ONLY = process.argv.includes('--typecheck.only');
const TYPECHECK = { enabled: TYPECHECK_ONLY, only: TYPECHECK_ONLY, include: ['test/types/**/*.test-d.ts'] };

/** Every test file. */
const ALL = ['test/**/*.test.ts', 'plugins/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts'];

/**
 * The database-backed suites the `mariadb` project runs again on MariaDB
 * (CONTRIBUTING.md "Tests", "Engines").
 */
const ON_MARIADB = [
  'test/runtime/db/**/*.test.ts',
  'test/runtime/audit/**/*.test.ts',
  'test/runtime/session/**/*.test.ts',
  'test/runtime/cache/**/*.test.ts',
  'test/runtime/auth/**/*.test.ts',
  'test/runtime/jobs/**/*.test.ts',
  'test/runtime/results/**/*.test.ts',
  'test/app/**/*.test.ts',
  'test/back-office/**/*.test.ts',
  'plugins/mailprovider/test/**/*.test.ts',
  'examples/realworld/test/**/*.test.ts',
];

/**
 * Files of those suites that do no database work — pure functions, cookie
 * sessions, settings — or measure answer times (the same on any engine, and
 * steadier run once): the `mariadb` project would only repeat them.
 */
const NO_DATABASE_WORK = [
  'test/runtime/audit/ip.test.ts',
  'test/runtime/audit/revert-authorize.test.ts',
  'test/runtime/audit/writers/for-engine.test.ts',
  'test/runtime/auth/address-lanes.test.ts',
  'test/runtime/auth/fingerprint.test.ts',
  'test/runtime/auth/passwords.test.ts',
  'test/runtime/auth/oauth/settings.test.ts',
  'test/runtime/jobs/select-backend.test.ts',
  'test/runtime/results/sort-key-text.test.ts',
  'test/runtime/results/url-builder.test.ts',
  'test/runtime/session/cookie-driver-cache.test.ts',
  'test/runtime/session/cookie-session.test.ts',
  'test/runtime/session/custom-driver.test.ts',
  'test/runtime/session/form-round-trip.test.ts',
  'test/runtime/session/settings.test.ts',
  'test/app/accounts-timing.test.ts',
  'test/app/forgot-password-timing.test.ts',
];

/**
 * Left to the `postgres` project: files that test PostgreSQL only (named
 * `postgres.test.ts` or `*.postgres.test.ts`, or in a `postgres/` folder), files that make their
 * own MariaDB databases whatever the project (`*.mysql.test.ts`, `mysql*.test.ts`,
 * a `mysql/` folder: they already run once on MariaDB), files that
 * compare the two engines side by side, and {@link NO_DATABASE_WORK}.
 */
const NOT_ON_MARIADB = [
  ...configDefaults.exclude,
  '**/*.postgres.test.ts',
  '**/postgres.test.ts',
  '**/postgres/**',
  '**/*.mysql.test.ts',
  '**/mysql*.test.ts',
  '**/mysql/**',
  'test/runtime/audit/writers/engines-agree.test.ts',
  ...NO_DATABASE_WORK,
];

// Two projects share one PostgreSQL and one MariaDB (the root's global setup,
// which the projects do not repeat): `postgres` runs every file, `mariadb`
// the database-backed suites again with BINDERY_TEST_ENGINE=mariadb, which
// turns createTestDatabase() (test/support/database.ts, bindery/testing) to
// MariaDB. `npm test` runs both; `npx vitest run --project postgres` one.
export default defineConfig({
  test: {
    globalSetup: ['./test/support/global-setup.ts'],
    // Tests print what they skip and why; keep the output readable.
    reporters: ['default'],
    // At least two files at a time: most of a file's time is waiting (on the
    // database, on the processes and browsers it starts, on HTTP), so on a
    // 2-core machine two halve the run where vitest's default (cores - 1)
    // would run one. `--maxWorkers=1` on the command line runs one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { ...shared, test: { ...sharedTest, name: 'postgres', include: ALL, typecheck: TYPECHECK } },
      {
        ...shared,
        test: { ...sharedTest, name: 'mariadb', include: ON_MARIADB, exclude: NOT_ON_MARIADB, env: { BINDERY_TEST_ENGINE: 'mariadb' } },
      },
    ],
  },
});
