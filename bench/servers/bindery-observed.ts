/**
 * Bench server for the cost of observability: the reference app booted as
 * `bindery serve` boots it (bench/servers/bindery-app.ts), in one of the
 * variants chosen by `BENCH_OBSERVABILITY`:
 *
 * - `without`: the app without its `observability()` step — what every
 *   request cost before the step existed;
 * - `off`: with the step and no observability setting (production): tracing off;
 * - `on`: with the step, `OTEL_EXPORTER_OTLP_ENDPOINT` pointed at the bench's
 *   local receiver (`BENCH_OTLP_URL`), every trace sampled (`always_on`),
 *   protobuf over HTTP (the default protocol), metrics over OTLP too;
 * - `lean`: as `on`, with `observability({ stageSpans: false })` (no stage spans);
 * - `sampled`: as `on`, a tenth of the traces kept (`traceidratio`, 0.1).
 */
import { startApp } from 'bindery/app';
import { observability } from 'bindery/observability';
import app from '../../app/main.js';

const variant = process.env.BENCH_OBSERVABILITY ?? 'off';
const otlp = process.env.BENCH_OTLP_URL;
const traced = variant === 'on' || variant === 'lean' || variant === 'sampled';
if (traced && !otlp) throw new Error(`BENCH_OBSERVABILITY=${variant} needs BENCH_OTLP_URL`);
const served =
  variant === 'without'
    ? { ...app, setup: app.setup.filter((step) => step.name !== 'observability') }
    : variant === 'lean'
      ? { ...app, setup: app.setup.map((step) => (step.name === 'observability' ? observability({ stageSpans: false }) : step)) }
      : app;

const running = await startApp(served, {
  env: {
    ...process.env,
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
