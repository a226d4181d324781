/**
 * ts-morph set-up shared by the TypeScript emitters: one in-memory project,
 * fixed formatting (two spaces, single quotes, LF), and printing with the
 * generated-file header on line 1.
 */
import { IndentationText, NewLineKind, Project, QuoteKind, StructureKind, type SourceFile, type StatementStructures } from 'ts-morph';

/** Creates source files and prints them deterministically. */
export interface TsPrinter {
  /** A new, empty source file named `name` (names are only used inside the in-memory project). */
  file(name: string): SourceFile;
  /**
   * A new source file made of `statements` (structures, or source text for
   * a statement) in one step: the file is printed and parsed once, however
   * many statements it has (adding them one by one re-parses the file each
   * time — quadratic).
   */
  fromStatements(name: string, statements: readonly (string | StatementStructures)[]): SourceFile;
  /** The file's text, formatted, with `// <header>` as line 1 and a final newline. */
  print(file: SourceFile, header: string): string;
}

/** The formatting every generated TypeScript file gets. */
const FORMAT = { indentSize: 2, tabSize: 2, convertTabsToSpaces: true, ensureNewLineAtEndOfFile: true } as const;

function newProject(): Project {
  return new Project({
    useInMemoryFileSystem: true,
    skipLoadingLibFiles: true,
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      quoteKind: QuoteKind.Single,
      newLineKind: NewLineKind.LineFeed,
      useTrailingCommas: true,
    },
  });
}

/**
 * `text` (TypeScript or JavaScript source) formatted by the TypeScript
 * formatter with the generated files' settings (two spaces, final newline).
 * One parse and one formatting pass: linear in the text's size, but not
 * cheap (about 0.6 s per MB here).
 */
export function formatTs(text: string): string {
  const file = newProject().createSourceFile('/format.ts', text);
  file.formatText(FORMAT);
  return file.getFullText();
}

/** A printer over a fresh in-memory ts-morph project. */
export function createTsPrinter(): TsPrinter {
  const project = newProject();
  return {
    file: (name) => project.createSourceFile(`/${name}`, '', { overwrite: true }),
    fromStatements(name, statements) {
      // Blank lines where adding the statements one by one puts them, and the structure printer does not:
      // after the imports, and after a variable statement followed by another kind of statement.
      const all: (string | StatementStructures)[] = [];
      statements.forEach((statement, i) => {
        const next = statements[i + 1];
        all.push(statement);
        if (next === undefined || typeof statement === 'string' || typeof next === 'string') return;
        const kind = statement.kind;
        if ((kind === StructureKind.ImportDeclaration || kind === StructureKind.VariableStatement) && next.kind !== kind) all.push('\n');
      });
      return project.createSourceFile(`/${name}`, { statements: all }, { overwrite: true });
    },
    print(file, header) {
      file.formatText(FORMAT);
      return `// ${header}\n${file.getFullText().replace(/\n+$/, '')}\n`;
    },
  };
}

/** A property name as written in TypeScript: bare when an identifier, else single-quoted. */
export function propertyName(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : quote(name);
}

/** A single-quoted TypeScript string literal. */
export function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

/** Escape text for a JSDoc comment (no comment terminator inside). */
export function docText(text: string): string {
  return text.replace(/\*\//g, '*\\/');
}
