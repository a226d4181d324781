/**
 * The generator's public surface: `bindery generate` calls {@link generate}
 * and prints diagnostics with {@link formatDiagnostic}. Everything else under
 * `generator/` is internal.
 */
export { generate, type GenerateOptions, type GenerateResult } from './generate.js';
export { formatDiagnostic, type DiagnosticCode, type SchemaDiagnostic, type SourcePosition } from './diagnostics.js';
