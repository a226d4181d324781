/**
 * Bench server: the reference app (`app/main.ts`) booted the way
 * `bindery serve` boots it — `startApp` with the app's settings, its setup
 * steps (audit, cache, session, auth, mail, tokens, …), its real route
 * groups and the execution context — in production settings
 * (`APP_ENV=production`, `LOG_LEVEL=warn`), on the database of
 * `DATABASE_URL` (the bench runner passes one; migrations already applied).
 *
 * The runner sets the environment (`APP_KEY` shared by every round, so the
 * signed-in cookies it made stay valid); `HTTP_ADDR` is 127.0.0.1 on a free port.
 * `BENCH_LOOP_REPORT=<file>`: the event loop is watched (bench/servers/loop-report.ts).
 */
import app from '../../app/main.js';
import { startApp } from 'bindery/app';
import { reportLoopOnSignal } from './loop-report.js';

reportLoopOnSignal();

const running = await startApp(app, {
  env: { ...process.env, APP_ENV: 'production', LOG_LEVEL: 'warn', HTTP_ADDR: '127.0.0.1:0' },
  out: () => {},
});
process.stdout.write(`listening ${running.address.port}\n`);
// startApp shuts down gracefully on SIGTERM; leave once it has.
void running.closed.then(() => process.exit(0));
