/**
 * Running the app's worker inside the serving process (`bindery serve
 * --worker`, and `bindery start` when the app has `jobs()`): jobs,
 * scheduled tasks and asynchronous listeners run next to the HTTP server;
 * shutdown lets running jobs finish (the jobs step's close hook).
 */
import type { RunningApp } from '../app/start-app.js';

/**
 * Start the worker of `running` in this process.
 * @param required throw when the app has no `jobs()` step (`serve --worker`); otherwise do nothing then (`start`).
 * @returns whether a worker was started.
 * @throws {ServiceNotSetUpError} `BINDERY_SERVICE_NOT_SET_UP` when `required` and the app has no `jobs()`; whatever starting the worker throws (the app is closed first).
 */
export async function startInProcessWorker(
  running: RunningApp,
  out: (text: string) => void,
  command: string,
  required: boolean,
): Promise<boolean> {
  const { jobsRuntimeOf, requireJobsRuntime } = await import('../jobs/jobs-runtime.js');
  try {
    const runtime = required ? requireJobsRuntime(running.services, command) : jobsRuntimeOf(running.services);
    if (runtime === undefined) return false;
    await runtime.startWorker();
    const n = runtime.taskNames().length;
    out(`Worker running in this process (${n} task${n === 1 ? '' : 's'}).\n`);
    return true;
  } catch (error) {
    await running.close();
    throw error;
  }
}
