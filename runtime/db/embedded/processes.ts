/**
 * Small process queries used to judge a `postmaster.pid` left behind:
 * is a PID alive, is it a PostgreSQL server, who is its parent.
 * Linux reads `/proc`; other systems ask `ps`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** True when a process with this PID exists (also when owned by another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ps(pid: number, field: string): string | undefined {
  try {
    return (
      execFileSync('ps', ['-o', `${field}=`, '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() ||
      undefined
    );
  } catch {
    return undefined;
  }
}

/** The parent PID of `pid`, or `undefined` when it cannot be told. */
export function parentPid(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    const out = ps(pid, 'ppid');
    return out ? Number(out) : undefined;
  }
}

/** True when `pid` runs a `postgres` binary (when unsure: true, the cautious answer). */
export function isPostgresProcess(pid: number): boolean {
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
    return /(^|\/)postgres$/.test(cmd) || cmd.startsWith('postgres:');
  } catch {
    const comm = ps(pid, 'comm');
    return comm === undefined ? isAlive(pid) : /postgres/.test(comm);
  }
}

/**
 * Wait until `pid` is gone, polling every 50 ms.
 * @returns true when it ended within `timeoutMs`.
 */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}
