/**
 * Printing generated TypeScript files (the statements of `ts-structures.ts`
 * and text statements, with the generated-file header on line 1), and the
 * TypeScript formatter the generator's tests hold the output to.
 */
import { createRequire } from 'node:module';
import { fileOfParts, type GeneratedFile } from '../write/generated-file.js';
import { printStatements, type StatementStructures } from './ts-structures.js';

/** Prints generated TypeScript files deterministically. */
export interface TsPrinter {
  /**
   * The text of a file made of `statements` — structures, or source text
   * for a statement — with `// <header>` as line 1 and a final newline.
   *
   * Structures are printed by `printStatements` (as ts-morph's structure
   * printer prints them, without loading it); text statements are spliced
   * in as they are. Not passed through the formatter either: the emitters
   * produce formatted text, which the generator's tests check with
   * {@link formatTs}. A blank line separates a text statement from its
   * neighbours; between structures, `printStatements` puts them.
   */
  print(name: string, statements: readonly (string | StatementStructures)[], header: string): string;
  /** The file `path` of {@link print}'s text, its header line and the rest kept apart (`GeneratedFile.parts`). */
  file(path: string, statements: readonly (string | StatementStructures)[], header: string): GeneratedFile;
}

/** The formatting every generated TypeScript file gets. */
const FORMAT = { indentSize: 2, tabSize: 2, convertTabsToSpaces: true, ensureNewLineAtEndOfFile: true } as const;

/** ts-morph, loaded on first use: the generator's cold path does without it (and without TypeScript). */
let tsMorph: typeof import('ts-morph') | undefined;

/** The ts-morph module, loaded (synchronously) on first call. */
export function loadTsMorph(): typeof import('ts-morph') {
  tsMorph ??= createRequire(import.meta.url)('ts-morph') as typeof import('ts-morph');
  return tsMorph;
}

/**
 * `text` (TypeScript or JavaScript source) formatted by the TypeScript
 * formatter with the generated files' settings (two spaces, final newline).
 * One parse and one formatting pass: linear in the text's size, but not
 * cheap (about 0.6 s per MB here), and it loads ts-morph and TypeScript.
 */
export function formatTs(text: string): string {
  const { IndentationText, NewLineKind, Project, QuoteKind } = loadTsMorph();
  const project = new Project({
    useInMemoryFileSystem: true,
    skipLoadingLibFiles: true,
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      quoteKind: QuoteKind.Single,
      newLineKind: NewLineKind.LineFeed,
      useTrailingCommas: true,
    },
  });
  const file = project.createSourceFile('/format.ts', text);
  file.formatText(FORMAT);
  return file.getFullText();
}

/** A printer of generated files (see {@link TsPrinter}). */
export function createTsPrinter(): TsPrinter {
  const body = (statements: readonly (string | StatementStructures)[]): string => {
    const pieces: string[] = [];
    let run: StatementStructures[] = [];
    for (const statement of statements) {
      if (typeof statement !== 'string') {
        run.push(statement);
        continue;
      }
      if (run.length > 0) pieces.push(printStatements(run));
      run = [];
      pieces.push(statement);
    }
    if (run.length > 0) pieces.push(printStatements(run));
    return pieces.join('\n\n');
  };
  return {
    print: (_name, statements, header) => `// ${header}\n${body(statements)}\n`,
    file: (path, statements, header) => fileOfParts(path, `// ${header}\n`, body(statements), '\n'),
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
