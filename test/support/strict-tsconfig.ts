/**
 * The `tsconfig.json` a test or benchmark writes when it type-checks code
 * outside the repository (a generated tree, the client, a probe): strict,
 * NodeNext modules, no emit — the settings generated code is held to
 * (docs/generator.md). `bindery/<entry>` imports resolve to this repository's
 * sources through the `bindery-source` condition (docs/package.md).
 */
const STRICT_COMPILER_OPTIONS = {
  target: 'ES2023',
  lib: ['ES2023'],
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  types: ['node'],
  strict: true,
  noUncheckedIndexedAccess: true,
  isolatedModules: true,
  verbatimModuleSyntax: true,
  skipLibCheck: true,
  noEmit: true,
  customConditions: ['bindery-source'],
} as const;

/**
 * The text of such a `tsconfig.json`.
 * @param project `include` (globs relative to the file), optional `files`
 *   (read before the globs) and `compilerOptions` added to or overriding the strict ones.
 * @returns JSON text to write as `tsconfig.json`.
 */
export function strictTsconfig(project: {
  readonly include: readonly string[];
  readonly files?: readonly string[];
  readonly compilerOptions?: Readonly<Record<string, unknown>>;
}): string {
  return JSON.stringify({
    compilerOptions: { ...STRICT_COMPILER_OPTIONS, ...project.compilerOptions },
    ...(project.files ? { files: project.files } : {}),
    include: project.include,
  });
}
