/**
 * ts-morph set-up shared by the TypeScript emitters: one in-memory project,
 * fixed formatting (two spaces, single quotes, LF), and printing with the
 * generated-file header on line 1.
 */
import { IndentationText, NewLineKind, printStructure, Project, QuoteKind, StructureKind, type StatementStructures } from 'ts-morph';
import { fileOfParts, type GeneratedFile } from '../write/generated-file.js';

/** Prints generated TypeScript files deterministically. */
export interface TsPrinter {
  /**
   * The text of a file made of `statements` — structures, or source text
   * for a statement — with `// <header>` as line 1 and a final newline.
   *
   * Each run of structures is printed by ts-morph in one step (printed and
   * parsed once, however many statements it has: adding them one by one
   * re-parses the file each time, which is quadratic); text statements are
   * spliced in as they are, never parsed. Not passed through the formatter
   * either: the emitters produce formatted text, which the generator's tests
   * check with {@link formatTs}. Blank lines go where adding the statements
   * one by one puts them: between statements, except between consecutive
   * imports (and as the structure printer decides inside a run).
   */
  print(name: string, statements: readonly (string | StatementStructures)[], header: string): string;
  /** The file `path` of {@link print}'s text, its header line and the rest kept apart (`GeneratedFile.parts`). */
  file(path: string, statements: readonly (string | StatementStructures)[], header: string): GeneratedFile;
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

/** How the structure printer writes: the same settings as {@link newProject}'s. */
const PRINT = { indentNumberOfSpaces: 2, newLine: '\n', useSingleQuote: true } as const;

/**
 * A printer using ts-morph's structure printer. Structures are printed to
 * text directly: making a source file of them would also parse the text,
 * which costs more than the printing and changes nothing in it.
 */
export function createTsPrinter(): TsPrinter {
  const printRun = (_name: string, run: readonly StatementStructures[]): string => {
    // The structure printer leaves no blank line after an import or variable statement followed by another kind of statement.
    const spaced: (string | StatementStructures)[] = [];
    run.forEach((statement, i) => {
      const next = run[i + 1];
      spaced.push(statement);
      if (
        next !== undefined &&
        (statement.kind === StructureKind.ImportDeclaration || statement.kind === StructureKind.VariableStatement) &&
        next.kind !== statement.kind
      )
        spaced.push('\n');
    });
    return printStructure({ kind: StructureKind.SourceFile, statements: spaced }, PRINT).replace(/\n+$/, '');
  };
  const body = (name: string, statements: readonly (string | StatementStructures)[]): string => {
    const pieces: string[] = [];
    let run: StatementStructures[] = [];
    for (const statement of statements) {
      if (typeof statement !== 'string') {
        run.push(statement);
        continue;
      }
      if (run.length > 0) pieces.push(printRun(name, run));
      run = [];
      pieces.push(statement);
    }
    if (run.length > 0) pieces.push(printRun(name, run));
    return pieces.join('\n\n');
  };
  return {
    print: (name, statements, header) => `// ${header}\n${body(name, statements)}\n`,
    file: (path, statements, header) => fileOfParts(path, `// ${header}\n`, body(path, statements), '\n'),
  };
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
