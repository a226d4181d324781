/**
 * Bench server: the RealWorld example (`examples/realworld/app/main.ts`)
 * booted the way `bindery serve` boots it, in production settings, on the
 * database of `DATABASE_URL` (migrated by the runner, bench/articles.ts).
 */
import app from '../app/main.js';
import { startApp } from 'bindery/app';

const running = await startApp(app, {
  env: { ...process.env, APP_ENV: 'production', LOG_LEVEL: 'warn', HTTP_ADDR: '127.0.0.1:0' },
  out: () => {},
});
process.stdout.write(`listening ${running.address.port}\n`);
void running.closed.then(() => process.exit(0));
