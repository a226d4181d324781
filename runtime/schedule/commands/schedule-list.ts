/**
 * `bindery schedule:list` (docs/jobs.md "Scheduled tasks").
 */
import { Command } from 'clipanion';
import { AppCommand } from '../../app/app-command.js';
import { formatTable } from '../../support/format-table.js';
import { requireJobsRuntime } from '../../jobs/jobs-runtime.js';
import { nextRun } from '../next-run.js';
import { scheduledTasksOf } from '../register-task.js';

/** `bindery schedule:list`: every scheduled task of the app and its plugins, with its next run. */
export class ScheduleListCommand extends AppCommand {
  static override paths = [['schedule:list']];
  static override usage = Command.Usage({
    category: 'Jobs',
    description: 'List the scheduled tasks of the app and its plugins, with their next run (UTC).',
  });

  protected async run(): Promise<number> {
    const { services } = await this.boot();
    const tasks = scheduledTasksOf(requireJobsRuntime(services, 'bindery schedule:list'));
    if (tasks.length === 0) {
      this.out('No scheduled tasks.\n');
      return 0;
    }
    const now = new Date();
    this.out(
      formatTable(
        ['TASK', 'CRON (UTC)', 'NEXT RUN', 'DESCRIPTION'],
        [...tasks]
          .sort((a, b) => (a.name < b.name ? -1 : 1))
          .map((t) => [t.name, t.cron, nextRun(t.cron, now)?.toISOString() ?? '—', t.description ?? '']),
      ),
    );
    return 0;
  }
}
