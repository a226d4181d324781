#!/usr/bin/env node
// The source-shape check (CONTRIBUTING.md "The check gate", "House rules").
// Fails (exit 1, one line per problem) on:
// - a source file over FILE_FAIL lines (a warning over FILE_WARN), unless it
//   is a data table listed in DATA_TABLES;
// - a function (declaration, method, arrow, function expression, accessor,
//   constructor) over FUNCTION_FAIL lines;
// - `throw new Error(` in the code people copy first (app/, plugins/*/src):
//   throw a coded error (a `BinderyError` code from the registry,
//   docs/errors.md) or an `HttpError` instead;
// - more than ANY_BUDGET explicit `any` (a `biome-ignore
//   lint/suspicious/noExplicitAny` comment) besides the definitions of the
//   named aliases in NAMED_ANY (CONTRIBUTING.md "House rules", "any"): use an
//   alias, or a type that says what it is.
//
//   node scripts/check-source.mjs [--root <folder>]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt >= 0 ? resolve(args[rootAt + 1]) : here;

const FILE_WARN = 400;
const FILE_FAIL = 500;
const FUNCTION_FAIL = 120;
/** Folders measured for file and function length. */
const MEASURED = ['runtime', 'generator', 'app', 'plugins', 'bin', 'scripts'];
/** Folders where `throw new Error(` is refused: the code an app's author reads and copies. */
const MODEL = ['app', 'plugins'];

/** At most this many explicit `any` outside the named aliases' definitions. */
const ANY_BUDGET = 15;
/** The named aliases that carry the reason for their `any` once (CONTRIBUTING.md "any"): their definitions are not counted. */
const NAMED_ANY = new Set([
  'AnyKysely',
  'UntypedTables',
  'AnyRouteHandler',
  'AnyJobDefinition',
  'AnyEventDefinition',
  'AnyListener',
  'AnyRequestAuth',
  'UntypedUser',
]);
const ANY_IGNORE = /\/\/\s*biome-ignore\s+lint\/suspicious\/noExplicitAny\b/;

/** Data tables: long because they list things, not because they do several things. Paths from the root. */
const DATA_TABLES = new Set(['runtime/errors/codes.ts']);

function* walk(dir) {
  if (!existsSync(dir)) return;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name === 'generated' || e.name === 'test' || e.name.startsWith('.')) continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* walk(path);
    else if (/\.(ts|mts|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts')) yield path;
  }
}

const { Node, Project } = await import('ts-morph');
const project = new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true, compilerOptions: { allowJs: true } });
const problems = [];
const warnings = [];
/** Where an explicit `any` is (`file:line` of the line after its biome-ignore). */
const explicitAny = [];

/** A readable name for a function node: its own name, the variable or property it is assigned to, or `(anonymous)`. */
function nameOf(node) {
  if (Node.isConstructorDeclaration(node)) return `${node.getParent()?.getName?.() ?? '(class)'}.constructor`;
  const own = node.getName?.();
  const parent = node.getParent();
  const cls = Node.isClassDeclaration(parent) || Node.isClassExpression(parent) ? `${parent.getName() ?? '(class)'}.` : '';
  if (own) return cls + own;
  if (Node.isVariableDeclaration(parent) || Node.isPropertyAssignment(parent) || Node.isPropertyDeclaration(parent))
    return parent.getName();
  return '(anonymous)';
}

for (const folder of MEASURED) {
  for (const file of walk(join(root, folder))) {
    const where = relative(root, file).split(sep).join('/');
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (!DATA_TABLES.has(where)) {
      if (lines > FILE_FAIL) problems.push(`${where}: ${lines} lines (at most ${FILE_FAIL}; split it by concept)`);
      else if (lines > FILE_WARN) warnings.push(`${where}: ${lines} lines (over ${FILE_WARN})`);
    }
    const sf = project.createSourceFile(file, text, { overwrite: true });
    sf.forEachDescendant((node) => {
      if (
        !Node.isFunctionDeclaration(node) &&
        !Node.isMethodDeclaration(node) &&
        !Node.isArrowFunction(node) &&
        !Node.isFunctionExpression(node) &&
        !Node.isConstructorDeclaration(node) &&
        !Node.isGetAccessorDeclaration(node) &&
        !Node.isSetAccessorDeclaration(node)
      )
        return;
      const length = node.getEndLineNumber() - node.getStartLineNumber() + 1;
      if (length <= FUNCTION_FAIL) return;
      const name = nameOf(node);
      problems.push(
        `${where}:${node.getStartLineNumber()}: ${name} is ${length} lines (at most ${FUNCTION_FAIL}; split it along its seams)`,
      );
    });
    project.removeSourceFile(sf);
    const lineList = text.split('\n');
    for (const [i, line] of lineList.entries()) {
      if (!ANY_IGNORE.test(line)) continue;
      const alias = /^\s*export\s+type\s+(\w+)/.exec(lineList[i + 1] ?? '')?.[1];
      if (alias === undefined || !NAMED_ANY.has(alias)) explicitAny.push(`${where}:${i + 2}`);
    }
    if (MODEL.includes(folder) && (folder === 'app' || where.split('/')[2] === 'src')) {
      for (const [i, line] of text.split('\n').entries())
        if (/\bthrow\s+new\s+Error\s*\(/.test(line))
          problems.push(`${where}:${i + 1}: throw new Error( in ${folder}/: throw a coded error (BinderyError, HttpError; docs/errors.md)`);
    }
  }
}

if (explicitAny.length > ANY_BUDGET)
  problems.push(
    `${explicitAny.length} explicit \`any\` (at most ${ANY_BUDGET} besides the named aliases ${[...NAMED_ANY].join(', ')}; CONTRIBUTING.md "any"): ${explicitAny.join(', ')}`,
  );

for (const w of warnings) console.warn(`warning: ${w}`);
for (const p of problems) console.error(p);
if (problems.length > 0) {
  console.error(`source check: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  process.exitCode = 1;
} else {
  console.log(
    `source check: ok${warnings.length > 0 ? ` (${warnings.length} file${warnings.length === 1 ? '' : 's'} over ${FILE_WARN} lines)` : ''}; ${explicitAny.length} explicit \`any\` of ${ANY_BUDGET}.`,
  );
}
