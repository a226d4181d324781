/**
 * `bindery jobs:retry <id>` (docs/jobs.md "Failed jobs").
 */
import { Command, Option, UsageError } from 'clipanion';
import { AppCommand } from '../../app/app-command.js';
import { retryJob } from '../failed-jobs.js';

/** `bindery jobs:retry <id>`: run a failed job again now, with its attempts counted from zero. */
export class JobsRetryCommand extends AppCommand {
  static override paths = [['jobs:retry']];
  static override usage = Command.Usage({
    category: 'Jobs',
    description: 'Run a failed job again now, with a fresh count of attempts.',
    details: `
      Takes an ID from \`bindery jobs:failed\`. The job keeps its payload and origin; a running worker picks it up at once. Exit 1 when no waiting job has that ID (it succeeded, was deleted, or is running).
    `,
    examples: [['Retry job 42', '$0 jobs:retry 42']],
  });

  id = Option.String({ name: 'id' });

  protected async run(): Promise<number> {
    if (!/^\d{1,18}$/.test(this.id)) throw new UsageError(`"${this.id}" is not a job ID; take one from "bindery jobs:failed".`);
    const { db } = await this.boot();
    const job = await retryJob(db.database, this.id);
    this.out(`Job ${job.id} (${job.name}) is due again now; a running worker picks it up within JOBS_POLL_INTERVAL.\n`);
    return 0;
  }
}
