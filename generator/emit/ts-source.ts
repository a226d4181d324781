/**
 * ts-morph set-up shared by the TypeScript emitters: one in-memory project,
 * fixed formatting (two spaces, single quotes, LF), and printing with the
 * generated-file header on line 1.
 */
import { IndentationText, NewLineKind, Project, QuoteKind, StructureKind, type SourceFile, type StatementStructures } from 'ts-morph';

/** Creates source files and prints them deterministically. */
export interface TsPrinter {
  /**
   * A new source file named `name` (only used inside the in-memory project) made of `statements` (structures, or source text for
   * a statement) in one step: the file is printed and parsed once, however
   * many statements it has (adding them one by one re-parses the file each
   * time — quadratic).
   */
  fromStatements(name: string, statements: readonly (string | StatementStructures)[]): SourceFile;
  /**
   * The file's text with `// <header>` as line 1 and a final newline. Not
   * passed through the formatter (a second parse and a pass that cost more
   * than printing): the emitters produce formatted text, which the
   * generator's tests check with {@link formatTs}.
   */
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
    fromStatements(name, statements) {
      // Blank lines where adding the statements one by one puts them, and the structure printer does not:
      // after the imports, and after a variable statement followed by another kind of statement.
      const all: (string | StatementStructures)[] = [];
      statements.forEach((statement, i) => {
        const next = statements[i + 1];
        all.push(statement);
        if (next === undefined) return;
        const kind = kindOf(statement);
        if ((kind === StructureKind.ImportDeclaration || kind === StructureKind.VariableStatement || kind === 'text') && kindOf(next) !== kind) all.push('\n');
      });
      return project.createSourceFile(`/${name}`, { statements: all }, { overwrite: true });
    },
    print(file, header) {
      return `// ${header}\n${file.getFullText().replace(/\n+$/, '')}\n`;
    },
  };
}

function kindOf(statement: string | StatementStructures): StructureKind | 'text' {
  return typeof statement === 'string' ? 'text' : statement.kind;
}

/**
 * An exported `const` as source text: `/** doc *\/`, then
 * `export const <name> = <initializer>;`. Unlike a variable statement
 * structure, the initializer's lines are kept as they are (a structure
 * indents them once more), so a literal printed by `printLiteral` stays
 * formatted.
 */
export function exportedConst(doc: string, name: string, initializer: string): string {
  return `/** ${docText(doc)} */\nexport const ${name} = ${initializer};`;
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
