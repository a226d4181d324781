// Bench server: the reference app's production build — `build/app/main.js`
// made by `npm run build` (`bindery build`), with bindery's compiled dist/ —
// served as `bindery serve` serves it under NODE_ENV=production: plain node,
// no tsx, `startApp` with the app's settings, setup steps, route groups and
// execution context, `APP_ENV=production`, `LOG_LEVEL=warn`, on the
// database of `DATABASE_URL` (migrated by the runner). Plain JavaScript, so
// it runs under any node binary (bench/http.ts "runtimes").
const { default: app } = await import(new URL('../../build/app/main.js', import.meta.url).href);
const { startApp } = await import('bindery/app');

const running = await startApp(app, {
  env: { ...process.env, NODE_ENV: 'production', APP_ENV: 'production', LOG_LEVEL: 'warn', HTTP_ADDR: '127.0.0.1:0' },
  out: () => {},
});
process.stdout.write(`listening ${running.address.port}\n`);
void running.closed.then(() => process.exit(0));
