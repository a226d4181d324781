/**
 * `bindery schedule:run <task>` (docs/jobs.md "Scheduled tasks").
 */
import { Command, Option } from 'clipanion';
import { AppCommand } from '../../app/app-command.js';
import { UnknownJobError } from '../../jobs/errors.js';
import { requireJobsRuntime } from '../../jobs/jobs-runtime.js';

/** `bindery schedule:run <task>`: queue one run of a scheduled task now. */
export class ScheduleRunCommand extends AppCommand {
  static override paths = [['schedule:run']];
  static override usage = Command.Usage({
    category: 'Jobs',
    description: 'Queue one run of a scheduled task now, outside its schedule.',
    details: `
      The run is queued like the scheduled ones (a worker runs it: \`bindery worker\`, or \`bindery serve --worker\`), attributed to \`system\` via the task. Exit 1 for an unknown task; \`bindery schedule:list\` lists them.
    `,
    examples: [['Prune now', '$0 schedule:run documents:prune']],
  });

  task = Option.String({ name: 'task' });

  protected async run(): Promise<number> {
    const { services } = await this.boot();
    const runtime = requireJobsRuntime(services, 'bindery schedule:run');
    const task = runtime.task(this.task);
    if (task === undefined || task.kind !== 'schedule') {
      const known = runtime.taskNames('schedule');
      throw new UnknownJobError(
        `No scheduled task is named "${this.task}".${known.length ? ` Known: ${known.join(', ')}.` : ' The app has none.'}`,
      );
    }
    const queued = await runtime.queue.enqueue(task, { _cron: { ts: new Date().toISOString(), backfilled: false } });
    this.out(`Queued ${task.name} as job ${queued.id}; a worker runs it.\n`);
    return 0;
  }
}
