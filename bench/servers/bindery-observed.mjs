// Bench server for the cost of observability: the reference app served as
// `bindery serve` serves it — by default its production build
// (`build/app/main.js` made by `npm run build`, on bindery's compiled dist/)
// under NODE_ENV=production by plain node; with BENCH_APP_SOURCES=1 (the
// bench's tsx rows, run under `node --import tsx`) its TypeScript sources —
// in the variant named by `BENCH_OBSERVABILITY`:
// - `without`: the app without its observability() step, what every request
//   cost before the step existed;
// - `off`: with the step and no observability setting: tracing off;
// - `on`: `OTEL_EXPORTER_OTLP_ENDPOINT` pointed at the bench's receiver
//   (`BENCH_OTLP_URL`), every trace recorded (`always_on`), OTLP/HTTP
//   protobuf, metrics over OTLP too;
// - `lean`: as `on`, with `observability({ stageSpans: false })`;
// - `sampled`: as `on`, a tenth of the traces kept (`traceidratio`, 0.1).
// BENCH_OTEL_SAMPLER and BENCH_OTEL_SAMPLER_ARG replace the traced variants'
// sampler (bench/observability-ab.ts: `always_off`, the cost of an unsampled request).
const sources = process.env.BENCH_APP_SOURCES === '1';
const { default: app } = await import(new URL(sources ? '../../app/main.ts' : '../../build/app/main.js', import.meta.url).href);
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
    ...(sources ? {} : { NODE_ENV: 'production' }),
    APP_ENV: 'production',
    LOG_LEVEL: 'warn',
    HTTP_ADDR: '127.0.0.1:0',
    ...(traced
      ? {
          OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
          OTEL_TRACES_SAMPLER: process.env.BENCH_OTEL_SAMPLER ?? (variant === 'sampled' ? 'traceidratio' : 'always_on'),
          OTEL_TRACES_SAMPLER_ARG: process.env.BENCH_OTEL_SAMPLER_ARG ?? (variant === 'sampled' ? '0.1' : '1'),
          OTEL_SERVICE_NAME: 'bench',
        }
      : {}),
  },
  out: () => {},
});
process.stdout.write(`listening ${running.address.port}\n`);
void running.closed.then(() => process.exit(0));
