/**
 * `bindery dev` (docs/cli.md "dev — the development loop") on a small app in a temporary
 * folder: it serves; a handler edited with `sed -i` is served after a
 * restart; a route added to the schema by an atomic save (a temporary file
 * renamed over it) is served after regeneration; a schema error is printed with
 * file:line:column while the last good build keeps answering; a destructive
 * change is refused with what to run; SIGTERM stops
 * the app process and the embedded PostgreSQL and exits 0.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmod, mkdir, readdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from './run-cli.js';
import { strictTsconfig } from '../../support/strict-tsconfig.js';

const NODE_MODULES = fileURLToPath(new URL('../../../node_modules', import.meta.url));
const root = await mkdtemp(join(tmpdir(), 'bindery-dev-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const SCHEMA = `resources:
  Note:
    table: notes
    fields:
      id:    { type: bigint, primaryKey: true, generated: true }
      title: { type: string, max: 200 }

routes:
  notes.list:
    method: GET
    path: /notes
    output: "Note[]"
    result: ok
`;

const COUNT_ROUTE = `
  notes.count:
    method: GET
    path: /notes/count
    output: Note
    result: ok
`;

const MAIN = `import { fileURLToPath } from 'node:url';
import { defineApp } from 'bindery/app';
import { routes } from '../generated/routes.js';
import { handlers } from './handlers.js';

// Only the handlers of routes that exist, so the schema can grow before the handlers.
const names = new Set<string>(routes.map((r) => r.name));
export default defineApp({
  name: 'dev_fixture',
  root: fileURLToPath(new URL('..', import.meta.url)),
  routes,
  handlers: Object.fromEntries(Object.entries(handlers).filter(([n]) => names.has(n))) as never,
  migrations: [{ source: 'app', dir: 'generated/migrations' }],
});
`;

// The type check reads bindery's TypeScript sources (no dist/ here), as this repository's own tsconfig
// does; runtime/http/index.ts first, for the generated Services augmentation (docs/package.md).
const TSCONFIG = strictTsconfig({
  files: [fileURLToPath(new URL('../../../runtime/http/index.ts', import.meta.url))],
  include: ['app', 'generated'],
});

const handlersFile = (title: string) => `export const handlers = {
  'notes.list': async (_input: unknown, ctx: any) => {
    const rows = await ctx.services.db.selectFrom('notes').selectAll().execute();
    return [{ id: rows.length + 1, title: '${title}' }];
  },
  'notes.count': async () => ({ id: 42, title: 'count' }),
};
`;

/** Poll `check` until it returns a value other than undefined, or fail after `ms`. */
let output = '';
async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await Promise.resolve(check()).catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; output:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function get(url: string): Promise<{ status: number; body: unknown } | undefined> {
  const res = await fetch(url).catch(() => undefined);
  if (!res) return undefined;
  return { status: res.status, body: await res.json().catch(() => undefined) };
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('bindery dev', () => {
  it('serves, restarts on a handler edit, regenerates on a schema edit, keeps the last good build on a schema error, stops on SIGTERM', async () => {
    await chmod(root, 0o755); // as root, the embedded PostgreSQL runs as "postgres", which must enter the folder
    await mkdir(join(root, 'schema'));
    await mkdir(join(root, 'app'));
    await symlink(NODE_MODULES, join(root, 'node_modules'));
    await writeFile(join(root, 'package.json'), '{ "name": "dev-fixture", "type": "module", "private": true }\n');
    await writeFile(join(root, 'schema/notes.yaml'), SCHEMA);
    await writeFile(join(root, 'app/main.ts'), MAIN);
    await writeFile(join(root, 'app/handlers.ts'), handlersFile('first'));
    await writeFile(join(root, 'tsconfig.json'), TSCONFIG);

    const child = spawn(process.execPath, [BIN, 'dev'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', HTTP_ADDR: '127.0.0.1:0', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      output = out;
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString();
      output = out;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await until('the URL', () => /bindery dev: (http:\/\/\S+) \(ready/.exec(out)?.[1], 30_000);
      expect(await get(`${url}/notes`)).toEqual({ status: 200, body: [{ id: 1, title: 'first' }] });

      // A handler edit with sed -i (the file is replaced by a rename): served after a restart,
      // the restart line saying where the time went.
      execFileSync('sed', ['-i', 's/first/second/', join(root, 'app/handlers.ts')]);
      await until('the edited handler', async () => ((await get(`${url}/notes`))?.body as any)?.[0]?.title === 'second' || undefined);
      expect(out).toContain('Changed: app/handlers.ts\n');
      expect(out).toMatch(
        /Restarted in \d+ ms \((waiting for the standby to load bindery \d+ ms, )?app setup \d+ ms, switch-over \d+ ms\): http:/,
      );

      // A type error: the background type check prints it as file:line:column; the app still runs.
      const typed = out.length;
      await writeFile(join(root, 'app/handlers.ts'), `${handlersFile('second')}\nexport const wrong: number = 'text';\n`);
      await until('the type error', () => (/Type check: 1 error/.test(out.slice(typed)) ? true : undefined), 40_000);
      expect(out.slice(typed)).toMatch(/^app\/handlers\.ts:9:14: error TS2322: Type 'string' is not assignable to type 'number'\.$/m);
      // The edit is valid JavaScript, so the app restarted with it (the port is free for a moment while the
      // processes switch): once the restart is reported, the edited build serves.
      await until('the restart after the edit', () => (/Restarted in \d+ ms/.test(out.slice(typed)) ? true : undefined), 40_000);
      expect(await until('an answer', () => get(`${url}/notes`))).toEqual({ status: 200, body: [{ id: 1, title: 'second' }] });
      await writeFile(join(root, 'app/handlers.ts'), handlersFile('second'));
      await until('the all-clear', () => (/Type check: no errors/.test(out.slice(typed)) ? true : undefined), 40_000);

      // A syntax error: the new build does not start, the last good build keeps serving; fixed, it is served.
      const broken = out.length;
      await writeFile(
        join(root, 'app/handlers.ts'),
        handlersFile('third').replace('export const handlers = {', 'export const handlers = {{'),
      );
      await until('the refused build', () => (/Still serving the last good build/.test(out.slice(broken)) ? true : undefined));
      expect(await get(`${url}/notes`)).toEqual({ status: 200, body: [{ id: 1, title: 'second' }] });
      await writeFile(join(root, 'app/handlers.ts'), handlersFile('third'));
      await until('the fixed handler', async () => ((await get(`${url}/notes`))?.body as any)?.[0]?.title === 'third' || undefined);

      // A route added to the schema by an editor's atomic save (a temporary file renamed over it): regenerated, then served.
      expect((await get(`${url}/notes/count`))?.status).toBe(404);
      await writeFile(join(root, 'schema/.notes.yaml.swx'), SCHEMA + COUNT_ROUTE);
      await rename(join(root, 'schema/.notes.yaml.swx'), join(root, 'schema/notes.yaml'));
      await until('the new route', async () => (await get(`${url}/notes/count`))?.status === 200 || undefined);
      expect(out).toMatch(/^Changed: schema\/notes\.yaml\n/m); // the temporary file is editor noise, never a change of its own
      expect(out).not.toContain('.swx');
      expect(out).toMatch(/Regenerated \d+ files?/);
      expect(await readFile(join(root, 'generated/routes.ts'), 'utf8')).toContain('notes.count');

      // A schema error: diagnostics with file:line:column; the last good build still answers.
      const mark = out.length;
      await writeFile(join(root, 'schema/notes.yaml'), `${SCHEMA + COUNT_ROUTE}    summary: [unclosed\n`);
      await until('the diagnostics', () => (out.slice(mark).includes('still serving the last good build') ? true : undefined));
      expect(out.slice(mark)).toMatch(/schema\/notes\.yaml:\d+:\d+/);
      expect(await get(`${url}/notes/count`)).toEqual({ status: 200, body: { id: 42, title: 'count' } });
      expect(await get(`${url}/notes`)).toEqual({ status: 200, body: [{ id: 1, title: 'third' }] });

      // A destructive change (dropping notes.title) is refused with what to run; nothing is dropped.
      const before = out.length;
      await writeFile(join(root, 'schema/notes.yaml'), (SCHEMA + COUNT_ROUTE).replace(/^ {6}title:.*\n/m, ''));
      await until('the destructive refusal', () => (out.slice(before).includes('still serving the last good build') ? true : undefined));
      expect(out.slice(before)).toContain('bindery generate --allow-destructive');
      expect(await readdir(join(root, 'generated/migrations'))).toHaveLength(1);
      expect((await get(`${url}/notes`))?.status).toBe(200);

      // SIGTERM: exit 0, and the app process and the embedded PostgreSQL are gone.
      const pids = await appAndDatabasePids(root, url);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(out).toContain('Stopped.');
      for (const pid of pids) expect(isAlive(pid), `pid ${pid} still running`).toBe(false);
      expect(await get(`${url}/notes`)).toBeUndefined();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 120_000);
});

/** The postmaster's pid (from postmaster.pid) and the app process's (the one listening on the URL's port, per /proc). */
async function appAndDatabasePids(root: string, url: string): Promise<number[]> {
  const postmaster = Number((await readFile(join(root, '.data/postgres/postmaster.pid'), 'utf8')).split('\n')[0]);
  const port = Number(new URL(url).port);
  const pids = [postmaster];
  const { execFileSync } = await import('node:child_process');
  try {
    const lsof = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
    for (const m of lsof.matchAll(/pid=(\d+)/g)) pids.push(Number(m[1]));
  } catch {
    /* ss missing: the database pid is still checked */
  }
  return pids;
}
