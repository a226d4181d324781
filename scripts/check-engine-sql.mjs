#!/usr/bin/env node
// The engine SQL check (CONTRIBUTING.md "The check gate"; ARCHITECTURE.md
// "The database seam"): PostgreSQL-only SQL and pg APIs live only in files
// and folders named for an engine (ENGINE_NAMED below). Elsewhere it fails
// (exit 1), one line per finding, `file:line:column: what it found`.
//
// Each source file is parsed with swc, and only what can carry SQL or a pg
// API is looked at: the text of string and template literals (tagged `sql`
// or not; types, comments and identifiers are not), calls (Kysely's
// `.returning()`, `.onConflict()`, …), `.code` compared with a SQLSTATE, and
// imports of PostgreSQL-only packages.
//
// A line may keep such SQL with a reason: it ends with, or follows a line
// that is, `// engine-sql: <the reason>` (the comment may also sit on or
// above the first line of a multi-line literal). At most EXCEPTION_BUDGET
// such comments outside engine files; the check prints their count.
//
//   node scripts/check-engine-sql.mjs [--root <folder>]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSync } from '@swc/core';
import { importFindings, literalFindings, nodeFindings } from './engine-sql-rules.mjs';

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt >= 0 ? resolve(args[rootAt + 1]) : here;

/** At most this many `// engine-sql: <reason>` exceptions outside engine-named files. */
const EXCEPTION_BUDGET = 5;

/**
 * Where PostgreSQL-only code belongs, each with its reason. A path (from the
 * root, `/`-separated, without a template's `.tmpl`) matching one is an
 * engine file and is not checked.
 */
const ENGINE_NAMED = [
  {
    test: (path) => path.split('/').slice(0, -1).includes('postgres'),
    reason: 'a folder named postgres: the PostgreSQL engine (runtime/db/engines/postgres/) or a subsystem strategy folder for it',
  },
  {
    test: (path) => /(^|\/)([^/]+\.)?postgres\.(ts|mts|mjs)$/.test(path),
    reason:
      "postgres.ts or *.postgres.ts: a subsystem's PostgreSQL strategy beside its neutral interface (runtime/audit/writers/postgres.ts)",
  },
  {
    test: (path) => path.startsWith('runtime/jobs/graphile/'),
    reason: 'the job queue on graphile-worker, which runs on PostgreSQL only',
  },
  {
    test: (path) => path.startsWith('runtime/db/embedded/'),
    reason: 'the embedded PostgreSQL server started when DATABASE_URL is unset',
  },
];

/**
 * The folders checked: the framework, the generator, the reference app, the
 * plugins' sources, the examples' apps and the starter templates. Not tests
 * (a test of an engine speaks to it on purpose), `generated/` (its SQL comes
 * from the generator, which is checked), nor `bench/`: the benchmarks measure
 * bindery on PostgreSQL against hand-written pg servers, are not shipped and
 * no app copies them.
 */
function checkedFolders() {
  const folders = ['runtime', 'generator', 'app', 'templates'];
  for (const [parent, child] of [
    ['plugins', 'src'],
    ['examples', 'app'],
  ]) {
    const at = join(root, parent);
    if (!existsSync(at)) continue;
    for (const e of readdirSync(at, { withFileTypes: true })) if (e.isDirectory()) folders.push(`${parent}/${e.name}/${child}`);
  }
  return folders;
}

const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'generated', 'test', 'tests', '__tests__', 'bench']);
const SOURCE = /\.(ts|mts|mjs)(\.tmpl)?$/;
const NOT_SOURCE = /\.(d\.ts|test\.ts|test-d\.ts|spec\.ts)(\.tmpl)?$/;

function* walk(dir) {
  if (!existsSync(dir)) return;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(e.name) || e.name.startsWith('.')) continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* walk(path);
    else if (SOURCE.test(e.name) && !NOT_SOURCE.test(e.name)) yield path;
  }
}

/** A template's `{{placeholder}}` as an identifier of the same length, so the file parses and positions stay. */
const fillPlaceholders = (text) => text.replace(/\{\{\s*[\w.]+\s*\}\}/g, (m) => '_'.repeat(m.length));

/**
 * Char offsets of the positions swc reports: UTF-8 byte offsets plus a base
 * (1 in each parse today; read from the end marker, so that a base carried
 * over from earlier parses would not move the findings).
 */
function charOffsets(text, base) {
  const bytes = Buffer.byteLength(text);
  if (bytes === text.length) return (span) => span - base;
  const table = new Uint32Array(bytes + 2);
  let b = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i);
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    for (let k = 0; k < size; k++) table[b + k] = i;
    b += size;
    if (size === 4) i++;
  }
  table[b] = text.length;
  return (span) => table[span - base];
}

/** A statement appended to each file: where it ends tells the base of swc's positions. */
const END_MARKER = '\n;"engine-sql-end";';

/** The file parsed, its statements (the end marker left out) and the char offsets of swc's positions. */
function parse(file, text) {
  const module = parseSync(text + END_MARKER, { syntax: /\.mjs(\.tmpl)?$/.test(file) ? 'ecmascript' : 'typescript', target: 'es2022' });
  const marker = module.body.at(-1);
  const base = marker.span.end - Buffer.byteLength(text + END_MARKER);
  return { body: module.body.slice(0, -1), toChar: charOffsets(text, base) };
}

/** Line and column (1-based) of char offsets. */
function lineIndex(text) {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo] + 1 };
  };
}

/** Keys that hold types only: their subtrees carry no SQL. */
const TYPE_KEYS = new Set(['typeAnnotation', 'typeParameters', 'typeParams', 'typeArguments', 'returnType', 'superTypeParams']);
const TYPE_NODES = new Set(['TsTypeAliasDeclaration', 'TsInterfaceDeclaration', 'TsTypeAnnotation']);

const EQUALITY = new Set(['===', '!==', '==', '!=']);
/** `<…>.capabilities.json`: the engine's JSON flag (`'jsonb' | 'json'`). */
const isJsonFlag = (node) =>
  node?.type === 'MemberExpression' &&
  node.property?.value === 'json' &&
  node.object?.type === 'MemberExpression' &&
  node.object.property?.value === 'capabilities';

/** The findings of one parsed module, and its literals' ranges (a `//` inside one is text, not a comment). */
class ModuleScan {
  found = [];
  literals = [];

  constructor(text, toChar) {
    this.text = text;
    this.toChar = toChar;
  }

  slice(span) {
    return this.text.slice(this.toChar(span.start), this.toChar(span.end));
  }

  visit(node) {
    if (Array.isArray(node)) {
      for (const item of node) if (item !== null && typeof item === 'object') this.visit(item);
      return;
    }
    if (TYPE_NODES.has(node.type) || this.special(node)) return;
    if (node.type === 'StringLiteral') return this.string(node);
    if (node.type === 'TemplateLiteral') this.template(node);
    else if (node.type !== undefined)
      for (const f of nodeFindings(node)) this.found.push({ ...f, at: this.toChar(f.at), node: this.toChar(node.span?.start ?? f.at) });
    for (const key in node) {
      if (key === 'span' || TYPE_KEYS.has(key)) continue;
      const value = node[key];
      if (value !== null && typeof value === 'object') this.visit(value);
    }
  }

  /** Nodes looked at in part, or not as the others: imports, the engine's JSON flag, errors' messages. @returns true when done with the node. */
  special(node) {
    switch (node.type) {
      case 'ImportDeclaration':
      case 'ExportAllDeclaration':
      case 'ExportNamedDeclaration':
        for (const f of importFindings(node)) this.found.push({ ...f, at: this.toChar(f.at) });
        return node.source != null;
      case 'BinaryExpression': {
        // `engine.capabilities.json === 'jsonb'` chooses a strategy by the engine's flag: the flag's value is no SQL.
        if (!EQUALITY.has(node.operator)) return false;
        const flag = isJsonFlag(node.left) ? node.right : isJsonFlag(node.right) ? node.left : undefined;
        if (flag?.type !== 'StringLiteral') return false;
        this.visit(flag === node.left ? node.right : node.left);
        return true;
      }
      case 'SwitchStatement':
        if (!isJsonFlag(node.discriminant)) return false;
        this.visit(node.discriminant);
        for (const c of node.cases) this.visit(c.consequent);
        return true;
      case 'NewExpression':
        // An error's message is prose ('INSERT … RETURNING gave no row'), not SQL: only the values in it are looked at.
        if (!/Error$/.test(node.callee?.value ?? '')) return false;
        for (const { expression } of node.arguments ?? [])
          if (expression.type === 'TemplateLiteral') this.visit(expression.expressions);
          else if (expression.type !== 'StringLiteral') this.visit(expression);
        return true;
      default:
        return false;
    }
  }

  string(node) {
    const start = this.toChar(node.span.start);
    const raw = this.slice(node.span);
    if (raw !== node.raw) throw new Error(`swc's positions do not match the text at offset ${start}: the check cannot place its findings`);
    this.literals.push([start, start + raw.length]);
    for (const f of literalFindings(raw.slice(1, -1), { afterExpression: false, beforeExpression: false, whole: node.value }))
      this.found.push({ ...f, at: start + 1 + f.at, node: start });
  }

  template(node) {
    const start = this.toChar(node.span.start);
    this.literals.push([start, this.toChar(node.span.end)]);
    const whole = node.quasis.map((q) => q.raw).join('');
    node.quasis.forEach((q, i) => {
      const at = this.toChar(q.span.start);
      for (const f of literalFindings(this.slice(q.span), { afterExpression: i > 0, beforeExpression: !q.tail, whole }))
        this.found.push({ ...f, at: at + f.at, node: start });
    });
  }
}

const EXCEPTION = /\/\/\s*engine-sql:(.*)$/;

/** The `// engine-sql:` comments of a file by line (1-based): `{ reason, alone, offset }`, those inside literals left out. */
function exceptionComments(text, literals) {
  const comments = new Map();
  let offset = 0;
  for (const [i, line] of text.split('\n').entries()) {
    const m = EXCEPTION.exec(line);
    if (m !== null) {
      const at = offset + m.index;
      if (!literals.some(([from, to]) => at >= from && at < to))
        comments.set(i + 1, { reason: m[1].trim(), alone: line.slice(0, m.index).trim() === '', offset: at, used: false });
    }
    offset += line.length + 1;
  }
  return comments;
}

/** The comment that excuses a finding on `line` (its node starting on `nodeLine`), if any. */
function excuse(comments, line, nodeLine) {
  for (const l of new Set([line, nodeLine])) {
    const same = comments.get(l);
    if (same !== undefined && same.reason !== '') return same;
    const above = comments.get(l - 1);
    if (above?.alone && above.reason !== '') return above;
  }
  return undefined;
}

function checkFile(file, where) {
  const source = readFileSync(file, 'utf8');
  const text = file.endsWith('.tmpl') ? fillPlaceholders(source) : source;
  const { body, toChar } = parse(file, text);
  const scan = new ModuleScan(text, toChar);
  scan.visit(body);
  const { found, literals } = scan;
  const position = lineIndex(text);
  const comments = exceptionComments(text, literals);
  const problems = [];
  const seen = new Set();
  for (const f of found.sort((a, b) => a.at - b.at)) {
    const { line, column } = position(f.at);
    const key = `${line}:${column}:${f.what}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const comment = excuse(comments, line, position(f.node ?? f.at).line);
    if (comment !== undefined) comment.used = true;
    else problems.push({ where: `${where}:${line}:${column}`, what: f.what, folder: where, line, column });
  }
  const exceptions = [];
  for (const [line, c] of comments) {
    const { column } = position(c.offset);
    const at = `${where}:${line}:${column}`;
    const problem = (what) => problems.push({ where: at, what, folder: where, line, column });
    if (c.reason === '') problem('an engine-sql comment without a reason (// engine-sql: <why>)');
    else if (!c.used) problem('an engine-sql comment that excuses nothing here: remove it');
    else exceptions.push(`${at} (${c.reason})`);
  }
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  return { problems, exceptions };
}

/** The folder a finding is counted under: the first two segments, or three for plugins/<name>/src and examples/<name>/app. */
const folderOf = (where) =>
  where
    .split('/')
    .slice(0, /^(plugins|examples)\//.test(where) ? 3 : 2)
    .join('/');

const problems = [];
const exceptions = [];
let files = 0;
for (const folder of checkedFolders()) {
  for (const file of walk(join(root, folder))) {
    const where = relative(root, file).split(sep).join('/');
    if (ENGINE_NAMED.some((e) => e.test(where.replace(/\.tmpl$/, '')))) continue;
    files++;
    let result;
    try {
      result = checkFile(file, where);
    } catch (error) {
      problems.push({ where, what: `cannot be parsed (${error instanceof Error ? error.message : String(error)})`, folder: where });
      continue;
    }
    problems.push(...result.problems);
    exceptions.push(...result.exceptions);
  }
}

if (exceptions.length > EXCEPTION_BUDGET)
  problems.push({
    where: `${exceptions.length} engine-sql exceptions`,
    what: `at most ${EXCEPTION_BUDGET} outside engine files: ${exceptions.join(', ')}`,
    folder: '(exceptions)',
  });

for (const p of problems) console.error(`${p.where}: ${p.what}`);
for (const e of exceptions) console.log(`engine-sql exception: ${e}`);
const tail = `${exceptions.length} engine-sql exception${exceptions.length === 1 ? '' : 's'} of ${EXCEPTION_BUDGET}`;
if (problems.length > 0) {
  const perFolder = new Map();
  for (const p of problems) perFolder.set(folderOf(p.folder), (perFolder.get(folderOf(p.folder)) ?? 0) + 1);
  const counts = [...perFolder].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([f, n]) => `${f} ${n}`);
  console.error(
    `engine SQL check: ${problems.length} finding${problems.length === 1 ? '' : 's'} outside engine-named files (${counts.join(', ')}); ${tail}.`,
  );
  console.error('PostgreSQL-only SQL belongs in an engine-named file; neutral code asks the engine (ARCHITECTURE.md "The database seam").');
  process.exitCode = 1;
} else {
  console.log(`engine SQL check: ok (${files} files); ${tail}.`);
}
