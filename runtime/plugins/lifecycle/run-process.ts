/**
 * Running npm, tar, tsc and bindery itself as child processes for `bindery
 * add` / `remove`, capturing their output for error messages.
 */
import { spawn } from 'node:child_process';

/** The outcome of a child process. */
export interface ProcessResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Run `command args` in `cwd`; resolves with its exit code and output (never rejects for a non-zero exit).
 * @throws {Error} when the command cannot be started (not found).
 */
export function runProcess(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32' && command === 'npm',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The last lines of a process's output, for a message. */
export function outputTail(result: ProcessResult, lines = 25): string {
  const text = `${result.stdout}${result.stderr}`.split('\n').filter((l) => l.trim() !== '' && !/Unknown user config/.test(l));
  return text
    .slice(-lines)
    .map((l) => `    ${l}`)
    .join('\n');
}
