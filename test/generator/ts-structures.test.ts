/**
 * The generator's structure printer (`generator/emit/ts-structures.ts`)
 * prints what ts-morph's `printStructure` prints for the same statements
 * (two spaces, single quotes), blank lines included: every kind and option
 * the emitters use, docs on one line and on several, empty bodies, function
 * bodies with statements of several lines and ending with a brace.
 */
import {
  ModuleDeclarationKind as TsModuleKind,
  printStructure,
  type StatementStructures as TsStatement,
  StructureKind as TsKind,
} from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { ModuleDeclarationKind, printStatements, type StatementStructures, StructureKind } from '../../generator/emit/ts-structures.js';

const KINDS = {
  [StructureKind.ImportDeclaration]: TsKind.ImportDeclaration,
  [StructureKind.ExportDeclaration]: TsKind.ExportDeclaration,
  [StructureKind.Interface]: TsKind.Interface,
  [StructureKind.TypeAlias]: TsKind.TypeAlias,
  [StructureKind.Function]: TsKind.Function,
  [StructureKind.Module]: TsKind.Module,
} as const;

/** The same statement as a ts-morph structure. */
function toTsMorph(s: StatementStructures): TsStatement {
  if (s.kind === StructureKind.Module)
    return { ...s, kind: TsKind.Module, declarationKind: TsModuleKind.Module, statements: s.statements.map(toTsMorph) } as TsStatement;
  return { ...s, kind: KINDS[s.kind] } as unknown as TsStatement;
}

/** ts-morph's text for the statements, as the printer printed it before (`printRun`: a blank line after an import run). */
function tsMorphText(statements: readonly StatementStructures[]): string {
  const spaced: (string | TsStatement)[] = [];
  statements.forEach((statement, i) => {
    spaced.push(toTsMorph(statement));
    const next = statements[i + 1];
    if (next !== undefined && statement.kind === StructureKind.ImportDeclaration && next.kind !== statement.kind) spaced.push('\n');
  });
  return printStructure(
    { kind: TsKind.SourceFile, statements: spaced },
    { indentNumberOfSpaces: 2, newLine: '\n', useSingleQuote: true },
  ).replace(/\n+$/, '');
}

const property = (name: string, more: object = {}) => ({ name, type: 'string', ...more });

const CASES: Record<string, StatementStructures[]> = {
  imports: [
    { kind: StructureKind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: 'kysely', namedImports: ['Insertable', 'Kysely'] },
    {
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: 'bindery/db',
      namedImports: ['createFactories as factoriesOf', 'type Factory'],
    },
    { kind: StructureKind.ImportDeclaration, moduleSpecifier: './side-effect.js' },
    { kind: StructureKind.TypeAlias, name: 'A', type: 'string' },
    { kind: StructureKind.TypeAlias, name: 'B', isExported: true, type: "'a' | 'b'", docs: ['Two letters.'] },
  ],
  exportOnly: [{ kind: StructureKind.ExportDeclaration }],
  interfaces: [
    { kind: StructureKind.Interface, name: 'Empty', isExported: true, docs: ['Nothing in it.'] },
    {
      kind: StructureKind.Interface,
      name: 'Card',
      isExported: true,
      extends: ["Pick<Article, 'slug' | 'title'>", 'Other'],
      docs: ['A card.\nOn two lines, with `code`.'],
      properties: [
        property('title'),
        property('summary', { hasQuestionToken: true, docs: ['Absent when empty (null, "" or []).'] }),
        property("'odd-name'", { isReadonly: true, docs: ['\nStarts with a line break.', 'Second doc. '] }),
        property('empty', { type: '' }),
      ],
    },
    { kind: StructureKind.TypeAlias, name: 'AfterInterface', type: '{ a: string }' },
    { kind: StructureKind.TypeAlias, name: 'Next', type: 'number' },
  ],
  functions: [
    {
      kind: StructureKind.Function,
      name: 'serializeNote',
      isExported: true,
      docs: ['Note row → JSON.'],
      parameters: [{ name: 'row', type: 'NoteRow' }],
      returnType: 'NoteJson',
      statements: ['const json = {\n  id: String(row.id),\n} as NoteJson;', "if (row.body !== '') json.body = row.body;", 'return json;'],
    },
    {
      kind: StructureKind.Function,
      name: 'text',
      parameters: [{ name: 'value', type: 'Date | string' }],
      returnType: 'string',
      statements: ['return String(value);'],
    },
    {
      kind: StructureKind.Function,
      name: 'blocks',
      isAsync: true,
      parameters: [{ name: 'a' }, { name: 'b', type: 'number', hasQuestionToken: true }],
      statements: ['if (a) {\n  return 1;\n}', 'for (const x of []) {\n}', 'return 2;'],
    },
    { kind: StructureKind.Function, name: 'empty' },
  ],
  modules: [
    { kind: StructureKind.TypeAlias, name: 'Before', type: 'string' },
    {
      kind: StructureKind.Module,
      name: "'bindery/http'",
      declarationKind: ModuleDeclarationKind.Module,
      hasDeclareKeyword: true,
      statements: [
        {
          kind: StructureKind.Interface,
          name: 'Services',
          properties: [property('db', { type: 'Kysely<Database>', docs: ['The database.'] })],
        },
        { kind: StructureKind.Interface, name: 'More', properties: [property('audit')] },
      ],
    },
  ],
};

describe('ts-structures | the structure printer', () => {
  for (const [name, statements] of Object.entries(CASES))
    it(`prints ${name} as ts-morph does`, () => {
      expect(printStatements(statements)).toBe(tsMorphText(statements));
    });
});
