/**
 * The statements of a generated TypeScript file described as data
 * (imports, interfaces, type aliases, functions, `declare module` blocks),
 * and their printer: the subset of ts-morph's structures the emitters use,
 * printed as ts-morph's structure printer prints them (two spaces, single
 * quotes), without loading ts-morph or TypeScript.
 * `test/generator/ts-structures.test.ts` checks the two print the same text.
 */

/** The kinds of statement {@link printStatements} prints. */
export const StructureKind = {
  ImportDeclaration: 'import',
  ExportDeclaration: 'export',
  Interface: 'interface',
  TypeAlias: 'typeAlias',
  Function: 'function',
  Module: 'module',
} as const;

/** `module` in `declare module '<name>' { … }`. */
export const ModuleDeclarationKind = { Module: 'module' } as const;

/** Docs, each printed as a JSDoc comment (`/** … *\/`, or one line per line). */
type Docs = readonly string[];

/** `import [type] { a, b } from '<moduleSpecifier>';` (`import '<moduleSpecifier>';` without names). */
export interface ImportDeclarationStructure {
  readonly kind: typeof StructureKind.ImportDeclaration;
  readonly moduleSpecifier: string;
  /** As written: `Name`, `Name as Alias`, `type Name`. */
  readonly namedImports?: readonly string[];
  readonly isTypeOnly?: boolean;
}

/** `export { };` (a module without exports). */
export interface ExportDeclarationStructure {
  readonly kind: typeof StructureKind.ExportDeclaration;
}

/** An interface member: `[readonly ]name[?]: type;`. */
export interface PropertySignatureStructure {
  readonly name: string;
  readonly type: string;
  readonly hasQuestionToken?: boolean;
  readonly isReadonly?: boolean;
  readonly docs?: Docs;
}

/** `[export ]interface Name[ extends A, B] { … }`. */
export interface InterfaceDeclarationStructure {
  readonly kind: typeof StructureKind.Interface;
  readonly name: string;
  readonly isExported?: boolean;
  readonly docs?: Docs;
  readonly extends?: readonly string[];
  readonly properties?: readonly PropertySignatureStructure[];
}

/** `[export ]type Name = type;`. */
export interface TypeAliasDeclarationStructure {
  readonly kind: typeof StructureKind.TypeAlias;
  readonly name: string;
  readonly type: string;
  readonly isExported?: boolean;
  readonly docs?: Docs;
}

/** A function parameter: `name[?]: type`. */
export interface ParameterStructure {
  readonly name: string;
  readonly type?: string;
  readonly hasQuestionToken?: boolean;
}

/** `[export ][async ]function name(params)[: returnType] { statements }`. */
export interface FunctionDeclarationStructure {
  readonly kind: typeof StructureKind.Function;
  readonly name: string;
  readonly isExported?: boolean;
  readonly isAsync?: boolean;
  readonly docs?: Docs;
  readonly parameters?: readonly ParameterStructure[];
  readonly returnType?: string;
  /** Source text of each statement of the body (lines after the first are indented with the body). */
  readonly statements?: readonly string[];
}

/** `declare module '<name>' { statements }` (an ambient module: its statements' declarations). */
export interface ModuleDeclarationStructure {
  readonly kind: typeof StructureKind.Module;
  /** Quoted: `'bindery/http'`. */
  readonly name: string;
  readonly declarationKind: typeof ModuleDeclarationKind.Module;
  readonly hasDeclareKeyword: true;
  readonly statements: readonly StatementStructures[];
}

/** A statement {@link printStatements} prints. */
export type StatementStructures =
  | ImportDeclarationStructure
  | ExportDeclarationStructure
  | InterfaceDeclarationStructure
  | TypeAliasDeclarationStructure
  | FunctionDeclarationStructure
  | ModuleDeclarationStructure;

const INDENT = '  ';

/**
 * The statements as ts-morph's `printStructure` prints a source file of
 * them, each top-level line indented by `indent`, without a final newline.
 * Statements are separated by a line break, or a blank line before an
 * interface, a function or a module, after a statement ending with `}`,
 * and after an import followed by something else; `ambient` (inside
 * `declare module`) drops the blank line before a function.
 */
export function printStatements(statements: readonly StatementStructures[], indent = '', ambient = false): string {
  // Joined once at the end: reading the last character of a growing concatenation would flatten it each time.
  const out: string[] = [];
  let previous: StatementStructures | undefined;
  let last = '';
  for (const statement of statements) {
    if (previous !== undefined) {
      const blank =
        lastNonSpace(last) === '}' ||
        statement.kind === StructureKind.Interface ||
        statement.kind === StructureKind.Module ||
        (statement.kind === StructureKind.Function && !ambient) ||
        (previous.kind === StructureKind.ImportDeclaration && statement.kind !== StructureKind.ImportDeclaration);
      out.push(blank ? '\n\n' : '\n');
    }
    last = printStatement(statement, indent);
    out.push(last);
    previous = statement;
  }
  return out.join('');
}

function printStatement(s: StatementStructures, indent: string): string {
  switch (s.kind) {
    case StructureKind.ImportDeclaration: {
      const names = s.namedImports !== undefined && s.namedImports.length > 0 ? ` { ${s.namedImports.join(', ')} } from` : '';
      return `${indent}import${s.isTypeOnly ? ' type' : ''}${names} ${quoted(s.moduleSpecifier)};`;
    }
    case StructureKind.ExportDeclaration:
      return `${indent}export { };`;
    case StructureKind.TypeAlias:
      return `${docs(s.docs, indent)}${indent}${s.isExported ? 'export ' : ''}type ${s.name}${typed(' =', s.type, indent)};`;
    case StructureKind.Interface: {
      const inner = indent + INDENT;
      const heritage = s.extends !== undefined && s.extends.length > 0 ? `extends ${s.extends.join(', ')} ` : '';
      const members = (s.properties ?? []).map(
        (p) =>
          `${docs(p.docs, inner)}${inner}${p.isReadonly ? 'readonly ' : ''}${p.name}${p.hasQuestionToken ? '?' : ''}${typed(':', p.type, inner)};\n`,
      );
      return `${docs(s.docs, indent)}${indent}${s.isExported ? 'export ' : ''}interface ${s.name} ${heritage}{\n${members.join('')}${indent}}`;
    }
    case StructureKind.Function: {
      const parameters = (s.parameters ?? []).map((p) => `${p.name}${p.hasQuestionToken ? '?' : ''}${typed(':', p.type, indent)}`);
      const head = `${s.isExported ? 'export ' : ''}${s.isAsync ? 'async ' : ''}function ${s.name}(${parameters.join(', ')})${typed(':', s.returnType, indent)}`;
      return `${docs(s.docs, indent)}${indent}${head} {\n${body(s.statements ?? [], indent + INDENT)}${indent}}`;
    }
    case StructureKind.Module: {
      const inner = printStatements(s.statements, indent + INDENT, true);
      return `${indent}declare module ${s.name} {\n${inner === '' ? '' : `${inner}\n`}${indent}}`;
    }
  }
}

/** A function body: each statement's lines indented, a blank line after a statement ending with `}`; ends with a line break. */
function body(statements: readonly string[], indent: string): string {
  const out: string[] = [];
  statements.forEach((statement, i) => {
    if (i > 0 && lastNonSpace(statements[i - 1]!) === '}') out.push('\n');
    out.push(`${indentLines(statement, indent)}\n`);
  });
  return out.join('');
}

/** `<separator> <type>` (the type's later lines indented one level more), or '' without a type. */
function typed(separator: string, type: string | undefined, indent: string): string {
  if (type === undefined || type.trim() === '') return '';
  return `${separator} ${indentLines(type, indent + INDENT).slice(indent.length + INDENT.length)}`;
}

/** Each non-empty line of `text` prefixed with `indent` (empty lines stay empty). */
function indentLines(text: string, indent: string): string {
  if (!text.includes('\n')) return text === '' ? '' : indent + text;
  return text
    .split(/\r?\n/)
    .map((line) => (line === '' ? '' : indent + line))
    .join('\n');
}

/** The JSDoc comments of `list`, each followed by a line break. */
function docs(list: Docs | undefined, indent: string): string {
  if (list === undefined) return '';
  let out = '';
  for (const doc of list) {
    const lines = doc.split(/\r?\n/);
    if (lines.length <= 1) {
      out += `${indent}/** ${doc}${doc.endsWith(' ') ? '' : ' '}*/\n`;
      continue;
    }
    out += `${indent}/**\n`;
    for (let i = lines[0] === '' ? 1 : 0; i < lines.length; i++) out += `${indent} *${lines[i] === '' ? '' : ` ${lines[i]}`}\n`;
    out += `${indent} */\n`;
  }
  return out;
}

/** A single-quoted module specifier (code-block-writer's escaping: backslash, quote, line breaks). */
function quoted(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\r?\n/g, '\\n')}'`;
}

/** The last character of `text` that is not whitespace, or '' when there is none. */
function lastNonSpace(text: string): string {
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text[i]!;
    if (c !== ' ' && c !== '\n' && c !== '\t' && c !== '\r') return c;
  }
  return '';
}
