/**
 * The engine SQL check (`npm run check:engine-sql`, scripts/check-engine-sql.mjs;
 * CONTRIBUTING.md "The check gate"): PostgreSQL-only SQL and pg APIs are
 * refused outside the files and folders named for an engine, each finding
 * with its file:line:column; engine files, IPv6 literals, comments and
 * identifiers pass, and so does a line that gives its reason in an
 * `// engine-sql: <reason>` comment. Run with the package.json script's
 * command on a small project in a temporary folder.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const scripts = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Run `npm run check:engine-sql`'s command on a throwaway project holding `files`; its exit code and output. */
function check(files: Readonly<Record<string, string>>): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'bindery-engine-sql-'));
  dirs.push(dir);
  for (const name of ['scripts/check-engine-sql.mjs', 'scripts/engine-sql-rules.mjs']) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    cpSync(join(repo, name), join(dir, name));
  }
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  const command = scripts['check:engine-sql'];
  if (command === undefined) throw new Error('package.json has no "check:engine-sql" script');
  return new Promise((resolve) => {
    execFile('sh', ['-c', command], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr });
    });
  });
}

const CAST = [
  "import { sql, type Kysely } from 'kysely';",
  '',
  '/** Reads a count. */',
  'export const count = (db: Kysely<object>, key: string) =>',
  '  sql<{ n: string }>`select value::text as n from bindery_cache where key = ${key}`.execute(db);',
  '',
].join('\n');

const RETURNING_ALL = [
  "import type { Kysely } from 'kysely';",
  '',
  '/** Makes a note. */',
  'export async function createNote(db: Kysely<{ notes: { id: number; title: string } }>, title: string) {',
  "  return db.insertInto('notes').values({ title }).returningAll().executeTakeFirstOrThrow();",
  '}',
  '',
].join('\n');

describe('npm run check:engine-sql | PostgreSQL-only SQL only in engine files', () => {
  it('refuses a ::text cast in runtime/cache, naming the file, line and column', async () => {
    const result = await check({ 'runtime/cache/drivers/counts.ts': CAST });
    expect(result.code, result.output).toBe(1);
    expect(result.output).toContain('runtime/cache/drivers/counts.ts:5:34: a ::text cast');
    expect(result.output).toContain('1 finding outside engine-named files (runtime/cache 1)');
  }, 30_000);

  it('refuses .returningAll() in app/handlers', async () => {
    const result = await check({ 'app/handlers/notes.ts': RETURNING_ALL });
    expect(result.code, result.output).toBe(1);
    expect(result.output).toContain('app/handlers/notes.ts:5:51: .returningAll()');
  }, 30_000);

  it('accepts the same in runtime/db/engines/postgres/x.ts, a postgres.ts strategy and the graphile-worker queue', async () => {
    const result = await check({
      'runtime/db/engines/postgres/x.ts': `${CAST}${RETURNING_ALL.replace(/^import .*\n/, '')}`,
      'runtime/audit/writers/postgres.ts': CAST,
      'runtime/jobs/graphile/queue.ts': CAST,
      'runtime/cache/drivers/counts.postgres.ts': CAST,
    });
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('engine SQL check: ok (0 files)');
  }, 30_000);

  it('accepts IPv6 literals, CSS pseudo-elements, comments and identifiers', async () => {
    const result = await check({
      'runtime/observability/local.ts': [
        '// A comment may say ::text, jsonb, RETURNING and ON CONFLICT: it is no SQL.',
        '/** Whether the address is this machine. */',
        "export const isLocal = (address: string): boolean => address === '::1' || address.startsWith('::ffff:127.');",
        "/** IPv6 examples. */\nexport const examples = ['fe80::1', '2001:db8::abcd', '[::1]:3000'];",
        '/** Groups joined. */',
        'export const joined = (head: string, tail: string): string => `${head}::${tail}`;',
        "/** A page's style. */\nexport const style = 'a::before { content: \"→\" }';",
        '/** Identifiers are no SQL. */',
        'export const returning = 1, jsonb = 2;',
        '',
      ].join('\n'),
    });
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('engine SQL check: ok (1 files); 0 engine-sql exceptions of 5.');
  }, 30_000);

  it('accepts a line with an // engine-sql: <reason> comment, and counts it; refuses one without a reason', async () => {
    const excused = CAST.replace('.execute(db);', '.execute(db); // engine-sql: the counter is read back as text on PostgreSQL only');
    const passing = await check({ 'runtime/cache/drivers/counts.ts': excused });
    expect(passing.code, passing.output).toBe(0);
    expect(passing.output).toContain('1 engine-sql exception of 5');
    expect(passing.output).toContain('engine-sql exception: runtime/cache/drivers/counts.ts:5:');

    // On the line above a multi-line literal: it excuses the literal's lines.
    const above = CAST.replace(
      '  sql<{ n: string }>`select value::text as n',
      '  // engine-sql: the counter is read back as text on PostgreSQL only\n  sql<{ n: string }>`\n    select key,\n      value::text as n',
    );
    const multiLine = await check({ 'runtime/cache/drivers/counts.ts': above });
    expect(multiLine.code, multiLine.output).toBe(0);
    expect(multiLine.output).toContain(
      'engine-sql exception: runtime/cache/drivers/counts.ts:5:3 (the counter is read back as text on PostgreSQL only)',
    );

    const bare = CAST.replace('.execute(db);', '.execute(db); // engine-sql:');
    const result = await check({ 'runtime/cache/drivers/counts.ts': bare });
    expect(result.code, result.output).toBe(1);
    expect(result.output).toContain('runtime/cache/drivers/counts.ts:5:34: a ::text cast');
    expect(result.output).toContain('an engine-sql comment without a reason');
  }, 30_000);

  it('refuses more than 5 engine-sql exceptions', async () => {
    const excused = (n: number) =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => [
          `runtime/cache/drivers/counts-${i}.ts`,
          CAST.replace('.execute(db);', '.execute(db); // engine-sql: planted'),
        ]),
      );
    const passing = await check(excused(5));
    expect(passing.code, passing.output).toBe(0);
    expect(passing.output).toContain('5 engine-sql exceptions of 5');
    const result = await check(excused(6));
    expect(result.code, result.output).toBe(1);
    expect(result.output).toContain('6 engine-sql exceptions: at most 5 outside engine files: runtime/cache/drivers/counts-0.ts:5:');
  }, 30_000);

  it("refuses .returningAll() in a starter template's handlers (placeholders filled)", async () => {
    const template = RETURNING_ALL.replace('createNote', 'create{{Name}}').replace("'notes'", "'{{table}}'");
    const result = await check({ 'templates/make-resource/handlers.ts.tmpl': template });
    expect(result.code, result.output).toBe(1);
    expect(result.output).toContain('templates/make-resource/handlers.ts.tmpl:5:55: .returningAll()');
  }, 30_000);

  it('refuses a SQLSTATE compared with .code and an import of pg; passes the portable spelling', async () => {
    const result = await check({
      'app/handlers/accounts.ts': [
        "import pg from 'pg';",
        '',
        '/** Whether the e-mail address is taken. */',
        "export const taken = (error: { code?: string }): boolean => error.code === '23505' && pg !== undefined;",
        '',
      ].join('\n'),
      'app/handlers/portable.ts': [
        "import { isUniqueViolation } from 'bindery/db';",
        '',
        '/** Whether the e-mail address is taken. */',
        "export const taken = (error: unknown): boolean => isUniqueViolation(error, 'users_email_key');",
        '',
      ].join('\n'),
    });
    expect(result.code, result.output).toBe(1);
    expect(result.output).toContain("app/handlers/accounts.ts:1:16: import from 'pg'");
    expect(result.output).toContain('app/handlers/accounts.ts:4:77: a SQLSTATE code');
    expect(result.output).not.toContain('portable.ts');
  }, 30_000);
});
