import { fileURLToPath } from 'node:url';
import { defaultServerConditions, type Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

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

export default defineConfig({
  plugins: [binderySelf],
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['bindery-source'] } },
  test: {
    include: ['test/**/*.test.ts', 'plugins/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts'],
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
