/**
 * Reading the state of a data directory left by an earlier run
 * (docs/database.md "Embedded PostgreSQL": crashes and stale lock files).
 *
 * `postmaster.pid` holds the server's PID (line 1) and port (line 4);
 * `bindery.owner` holds the PID of the bindery process that started it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isAlive, isPostgresProcess, parentPid } from './processes.js';

/** What runs on a data directory. */
export type PostmasterState =
  | { readonly kind: 'none' }
  /** A lock file whose PID is gone or is not a PostgreSQL server (a crash, or a reused PID). */
  | { readonly kind: 'stale'; readonly pid: number }
  /** A live server another live bindery process started (attach to it, never stop it). */
  | { readonly kind: 'owned-elsewhere'; readonly pid: number; readonly port: number; readonly ownerPid: number }
  /** A live server whose starter is gone (the bindery process crashed or was killed). */
  | { readonly kind: 'orphan'; readonly pid: number; readonly port: number };

const OWNER_FILE = 'bindery.owner';

/** Record that this process started the server `postgresPid`. */
export async function writeOwner(dataDir: string, postgresPid: number): Promise<void> {
  await writeFile(join(dataDir, OWNER_FILE), `${JSON.stringify({ ownerPid: process.pid, postgresPid })}\n`);
}

async function readOwner(dataDir: string): Promise<{ ownerPid: number; postgresPid: number } | undefined> {
  try {
    return JSON.parse(await readFile(join(dataDir, OWNER_FILE), 'utf8')) as { ownerPid: number; postgresPid: number };
  } catch {
    return undefined;
  }
}

/** Inspect `<dataDir>/postmaster.pid` and the owner record. */
export async function inspectPostmaster(dataDir: string): Promise<PostmasterState> {
  let text: string;
  try {
    text = await readFile(join(dataDir, 'postmaster.pid'), 'utf8');
  } catch {
    return { kind: 'none' };
  }
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !isPostgresProcess(pid)) return { kind: 'stale', pid };
  const owner = await readOwner(dataDir);
  if (
    owner &&
    owner.postgresPid === pid &&
    owner.ownerPid !== process.pid &&
    isAlive(owner.ownerPid) &&
    parentPid(pid) === owner.ownerPid
  ) {
    return { kind: 'owned-elsewhere', pid, port, ownerPid: owner.ownerPid };
  }
  return { kind: 'orphan', pid, port };
}
