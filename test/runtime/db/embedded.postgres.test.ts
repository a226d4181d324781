import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../../runtime/db/embedded/embedded-postgres.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('embedded PostgreSQL | start, query, stop, restart', () => {
  let root: string;
  let dataDir: string;
  const started: EmbeddedPostgres[] = [];
  const start = async () => {
    let progress = '';
    const server = await startEmbeddedPostgres({
      dataDir,
      displayDir: 'data/postgres',
      onProgress: (t) => {
        progress += t;
      },
    });
    started.push(server);
    return { server, progress };
  };

  const signalListeners = () =>
    process.listeners('SIGTERM').length + process.listeners('SIGINT').length + process.listeners('SIGHUP').length;
  let listenersBefore = 0;

  beforeAll(async () => {
    listenersBefore = signalListeners();
    root = await mkdtemp(join(tmpdir(), 'bindery-embedded-'));
    await chmod(root, 0o755); // as root, PostgreSQL runs as "postgres", which must enter it
    dataDir = join(root, 'data', 'postgres');
  });
  afterAll(async () => {
    for (const s of started) await s.stop().catch(() => {});
    await rm(root, { recursive: true, force: true });
  });

  it('creates the cluster on first start (saying so), listens on 127.0.0.1 with the socket in the data dir, answers queries', async () => {
    const { server, progress } = await start();
    expect(progress).toMatch(/^Creating the embedded PostgreSQL database in data\/postgres … done \(\d+\.\d s\)\n$/);
    expect(server.owned).toBe(true);
    expect(server.url()).toMatch(new RegExp(`^postgres://postgres:[^@]+@127\\.0\\.0\\.1:${server.port}/postgres$`));
    const [row] = await query<{ listen: string; sockets: string; encoding: string }>(
      server.url(),
      "select current_setting('listen_addresses') as listen, current_setting('unix_socket_directories') as sockets, pg_encoding_to_char(encoding) as encoding from pg_database where datname = 'postgres'",
    );
    expect(row).toEqual({ listen: '127.0.0.1', sockets: dataDir, encoding: 'UTF8' });
    await stat(join(dataDir, `.s.PGSQL.${server.port}`));
    await query(server.url(), "create table kept (v text); insert into kept values ('survives')");
    expect(JSON.parse(await readFile(join(dataDir, 'bindery.json'), 'utf8')).password).toMatch(/^[\w-]{32}$/);
    await server.stop();
    expect(alive(server.pid)).toBe(false);
    await server.stop(); // idempotent
  });

  it('a restart keeps the data and does not create the cluster again', async () => {
    const { server, progress } = await start();
    expect(progress).toBe('');
    expect(await query(server.url(), 'select v from kept')).toEqual([{ v: 'survives' }]);
    await server.stop();
  });

  it('a postmaster.pid naming a live process that is not PostgreSQL (a reused PID) is removed', async () => {
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await writeFile(join(dataDir, 'postmaster.pid'), `${sleeper.pid}\n${dataDir}\n1\n5432\n`);
      const { server, progress } = await start();
      expect(progress).toBe(`Removed a stale postmaster.pid (pid ${sleeper.pid} is not a running PostgreSQL).\n`);
      expect(await query(server.url(), 'select v from kept')).toEqual([{ v: 'survives' }]);
      await server.stop();
    } finally {
      sleeper.kill();
    }
  });

  it("a server left running by a crashed bindery process is stopped and started afresh; a live owner's server is shared", async () => {
    const fixture = fileURLToPath(new URL('./fixtures/hold-embedded.ts', import.meta.url));
    const holder = spawn(process.execPath, ['--import', 'tsx', fixture, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    holder.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
    });
    try {
      await waitFor('the holder to start PostgreSQL', () => out.includes('READY'), 30_000);
      const [, pidText] = /READY (\d+) (\d+)/.exec(out)!;
      const orphanPid = Number(pidText);

      // While its owner lives, a second process attaches and leaves it running.
      const shared = await start();
      expect(shared.progress).toMatch(/^Using the embedded PostgreSQL already running for this project \(pid \d+, port \d+\)\.\n$/);
      expect(shared.server.owned).toBe(false);
      expect(await query(shared.server.url(), 'select v from kept')).toEqual([{ v: 'survives' }]);
      await shared.server.stop();
      expect(alive(orphanPid)).toBe(true);

      // The owner dies without cleaning up: the server is orphaned.
      holder.kill('SIGKILL');
      await waitFor('the holder to die', () => holder.exitCode !== null || holder.signalCode !== null);
      expect(alive(orphanPid)).toBe(true);

      const { server, progress } = await start();
      expect(progress).toBe(`Stopping the embedded PostgreSQL left running by an earlier run (pid ${orphanPid}) … done\n`);
      expect(alive(orphanPid)).toBe(false);
      expect(server.owned).toBe(true);
      expect(await query(server.url(), 'select v from kept')).toEqual([{ v: 'survives' }]);
      await server.stop();
    } finally {
      if (holder.exitCode === null && holder.signalCode === null) holder.kill('SIGKILL');
    }
  });

  it('stop() lets a session that is ending finish without an error, then stops; one still open is ended after a grace', async () => {
    const { server } = await start();
    const ending = new pg.Client({ connectionString: server.url() });
    const staying = new pg.Client({ connectionString: server.url() });
    const errors = { ending: [] as string[], staying: [] as string[] };
    ending.on('error', (e: Error) => errors.ending.push(e.message));
    staying.on('error', (e: Error) => errors.staying.push(e.message));
    await ending.connect();
    await staying.connect();
    const started = Date.now();
    const stopping = server.stop();
    // A pool ending its connections while the server stops: they end normally.
    await new Promise((r) => setTimeout(r, 200));
    expect(errors.ending).toEqual([]);
    await ending.end();
    await stopping;
    expect(alive(server.pid)).toBe(false);
    expect(errors.ending).toEqual([]);
    // The session nobody ended is ended by the server once the grace is over.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    expect(errors.staying.join()).toMatch(/terminating connection due to administrator command|Connection terminated/);
    await staying.end().catch(() => {});
  }, 30_000);

  it("leaves no signal handlers behind (embedded-postgres's exit hook is removed; bindery shuts down by itself)", () => {
    expect(signalListeners()).toBe(listenersBefore);
  });
});

describe.runIf(process.getuid?.() === 0)('embedded PostgreSQL | as root', () => {
  it('names a folder the "postgres" user cannot enter, before trying initdb', async () => {
    const root = await mkdtemp(join(tmpdir(), 'bindery-embedded-closed-'));
    try {
      const error = await startEmbeddedPostgres({ dataDir: join(root, '.data', 'postgres') }).catch((e: unknown) => e);
      expect((error as { code?: string }).code).toBe('BINDERY_EMBEDDED_POSTGRES_FAILED');
      expect((error as Error).message).toContain(`cannot enter ${root} (mode 700)`);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
