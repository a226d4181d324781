// Bench server for the cost of observability, the production path: the
// reference app's production build (`build/app/main.js` made by
// `npm run build`, on bindery's compiled dist/) served as `bindery serve`
// serves it under NODE_ENV=production, by plain node — in the variant named
// by `BENCH_OBSERVABILITY` (the variants of bench/servers/bindery-observed.ts):
// `without` the observability() step, `off` (the step, nothing configured),
// `on` (OTLP/HTTP protobuf to `BENCH_OTLP_URL`, every trace recorded),
// `lean` (as `on`, with `observability({ stageSpans: false })`), `sampled`
// (a tenth of the traces).
const { default: app } = await import(new URL('../../build/app/main.js', import.meta.url).href);
const { startApp } = await import('bindery/app');
const { observability } = await import('bindery/observability');

const variant = process.env.BENCH_OBSERVABILITY ?? 'off';
const otlp = process.env.BENCH_OTLP_URL;
const traced = variant === 'on' || variant === 'lean' || variant === 'sampled';
if (traced && !otlp) throw new Error(`BENCH_OBSERVABILITY=${variant} needs BENCH_OTLP_URL`);
if (app.setup.every((step) => step.name !== 'observability')) throw new Error('the reference app has no observability() step');
const served =
  variant === 'without'
    ? { ...app, setup: app.setup.filter((step) => step.name !== 'observability') }
    : variant === 'lean'
      ? { ...app, setup: app.setup.map((step) => (step.name === 'observability' ? observability({ stageSpans: false }) : step)) }
      : app;

const running = await startApp(served, {
  env: {
    ...process.env,
    NODE_ENV: 'production',
    APP_ENV: 'production',
    LOG_LEVEL: 'warn',
    HTTP_ADDR: '127.0.0.1:0',
    ...(traced
      ? {
          OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
          OTEL_TRACES_SAMPLER: variant === 'sampled' ? 'traceidratio' : 'always_on',
          OTEL_TRACES_SAMPLER_ARG: variant === 'sampled' ? '0.1' : '1',
          OTEL_SERVICE_NAME: 'bench',
        }
      : {}),
  },
  out: () => {},
});
process.stdout.write(`listening ${running.address.port}\n`);
void running.closed.then(() => process.exit(0));
