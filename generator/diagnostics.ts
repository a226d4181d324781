/**
 * Schema diagnostics: what went wrong, where in the YAML (independent of the behaviour spec;
 * docs/generator.md).
 */
import { errorMessage, type ErrorCode, type MessageParams, type TemplatedCode } from '../runtime/errors/codes.js';

/** A position in a schema file (1-based line and column) or in a generated file. */
export interface SourcePosition {
  /** Path relative to the project root, forward slashes, e.g. `schema/notes.yaml`. */
  readonly file: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
}

/** Codes a diagnostic carries (see `runtime/errors/codes.ts` and docs/errors.md). */
export type DiagnosticCode = Extract<
  ErrorCode,
  | 'BINDERY_SCHEMA_INVALID'
  | 'BINDERY_SCHEMA_RESERVED_NAME'
  | 'BINDERY_SCHEMA_RESERVED_TABLE'
  | 'BINDERY_MIGRATION_DESTRUCTIVE'
  | 'BINDERY_MIGRATION_UNSUPPORTED'
>;

/**
 * One error found in the schema (or in the migration it asks for).
 * Formatted by {@link formatDiagnostic} as `file:line:column: path: message`.
 */
export interface SchemaDiagnostic extends SourcePosition {
  /** Dotted path of the YAML node, e.g. `routes.notes.create.input.tags.validate[1]`; empty for the whole file. */
  readonly path: string;
  /** What is wrong, the value seen and what to do. */
  readonly message: string;
  /** Error code: `BINDERY_SCHEMA_…` for the schema itself (`_RESERVED_NAME`, `_RESERVED_TABLE` for a reserved name, else `_INVALID`), `BINDERY_MIGRATION_…` for refused migrations. */
  readonly code: DiagnosticCode;
}

/**
 * Format a diagnostic the way the CLI prints it.
 * @example formatDiagnostic(d) // 'schema/notes.yaml:14:7: routes.notes.create.input.tags.validate[1]: unknown rule "distinc" (did you mean "distinct"?)'
 */
export function formatDiagnostic(d: SchemaDiagnostic): string {
  return d.path === '' ? `${d.file}:${d.line}:${d.column}: ${d.message}` : `${d.file}:${d.line}:${d.column}: ${d.path}: ${d.message}`;
}

/**
 * Collects diagnostics of every stage; {@link Diagnostics.sorted} returns them
 * deduplicated and sorted by file, line, column, then message.
 */
export class Diagnostics {
  private readonly list: SchemaDiagnostic[] = [];

  /** Record one diagnostic. */
  add(at: SourcePosition, path: string, message: string, code: DiagnosticCode = 'BINDERY_SCHEMA_INVALID'): void {
    this.list.push({ file: at.file, line: at.line, column: at.column, path, message, code });
  }

  /**
   * Record one diagnostic whose message is its code's template (runtime/errors/codes.ts) filled with `params`.
   * @throws {RangeError} when a placeholder has no value.
   */
  addFrom<C extends DiagnosticCode & TemplatedCode>(at: SourcePosition, path: string, code: C, params: MessageParams<C>): void {
    this.add(at, path, errorMessage(code, params), code);
  }

  private readonly warningList: SchemaDiagnostic[] = [];

  /**
   * Record a warning: generation goes on (a list filter without an index).
   * Warnings never make `any` true.
   */
  warn(at: SourcePosition, path: string, message: string): void {
    this.warningList.push({ file: at.file, line: at.line, column: at.column, path, message, code: 'BINDERY_SCHEMA_INVALID' });
  }

  /** Every warning, sorted and deduplicated like {@link sorted}. */
  warnings(): SchemaDiagnostic[] {
    return sortUnique(this.warningList);
  }

  /** True when at least one diagnostic was recorded. */
  get any(): boolean {
    return this.list.length > 0;
  }

  /** Every diagnostic, sorted by file, line, column and message, without duplicates. */
  sorted(): SchemaDiagnostic[] {
    return sortUnique(this.list);
  }
}

function sortUnique(list: readonly SchemaDiagnostic[]): SchemaDiagnostic[] {
  const seen = new Set<string>();
  return [...list]
    .sort((a, b) => compare(a.file, b.file) || a.line - b.line || a.column - b.column || compare(a.message, b.message))
    .filter((d) => {
      const key = formatDiagnostic(d);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
