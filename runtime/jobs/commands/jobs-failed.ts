/**
 * `bindery jobs:failed` (docs/jobs.md "Failed jobs").
 */
import { Command, Option } from 'clipanion';
import { AppCommand } from '../../app/app-command.js';
import { formatTable } from '../../support/format-table.js';
import { listFailedJobs } from '../failed-jobs.js';

/** `bindery jobs:failed [--full]`: jobs whose last attempt failed, with their error. */
export class JobsFailedCommand extends AppCommand {
  static override paths = [['jobs:failed']];
  static override usage = Command.Usage({
    category: 'Jobs',
    description: 'List jobs whose last attempt failed, with their error.',
    details: `
      Lists every job (scheduled task, asynchronous listener) whose last attempt threw, oldest first: its ID, name, attempts made and allowed, its state — \`retrying at <time>\` while attempts are left, \`failed\` once they ran out — and the first line of its error (\`--full\` prints the whole error under each row).

      Run one again now with \`bindery jobs:retry <id>\`. Prints "No failed jobs." when there are none.
    `,
  });

  full = Option.Boolean('--full', false, { description: 'Print each error in full.' });

  protected async run(): Promise<number> {
    const { db } = await this.boot();
    const failed = await listFailedJobs(db.database);
    if (failed.length === 0) {
      this.out('No failed jobs.\n');
      return 0;
    }
    const rows = failed.map((j) => [
      j.id,
      j.name,
      `${j.attempts}/${j.maxAttempts}`,
      j.permanent ? 'failed' : `retrying at ${j.runAt.toISOString()}`,
      firstLine(j.lastError),
    ]);
    if (!this.full) {
      this.out(formatTable(['ID', 'JOB', 'ATTEMPTS', 'STATE', 'LAST ERROR'], rows));
      return 0;
    }
    for (const [i, j] of failed.entries()) {
      this.out(formatTable(['ID', 'JOB', 'ATTEMPTS', 'STATE'], [rows[i]!.slice(0, 4)]));
      this.out(`${j.lastError.replace(/^/gm, '    ')}\n\n`);
    }
    return 0;
  }
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
