/**
 * The observability() settings and what they turn on (docs/observability.md
 * "Settings", "What is on when"): the OTEL_* variables in their standard
 * formats, each bad one named at boot.
 */
import { describe, expect, it } from 'vitest';
import { SettingsError } from '../../../runtime/config/index.js';
import { loadSettings } from '../../../runtime/config/load-settings.js';
import { observabilityConfig } from '../../../runtime/observability/observability-config.js';
import { observabilitySettings } from '../../../runtime/observability/settings.js';

const config = (env: Record<string, string>, environment = 'production') =>
  observabilityConfig(loadSettings(observabilitySettings, { APP_ENV: environment, ...env }), { name: 'notes', environment });

function problems(env: Record<string, string>): string[] {
  try {
    loadSettings(observabilitySettings, env);
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return (error as SettingsError).problems.map((p) => p.message);
  }
  return [];
}

describe('observabilityConfig | off unless configured', () => {
  it('production without settings: nothing at all', () => {
    expect(config({})).toEqual({
      resource: { 'service.name': 'notes' },
      traces: null,
      otlpMetrics: null,
      prometheus: null,
      accessLog: false,
      dashboard: false,
    });
  });

  it('development: the dashboard alone, unless DEV_DASHBOARD=false', () => {
    expect(config({}, 'development')).toMatchObject({ traces: null, otlpMetrics: null, dashboard: true });
    expect(config({ DEV_DASHBOARD: 'false' }, 'development').dashboard).toBe(false);
    expect(config({ DEV_DASHBOARD: 'true' }, 'production').dashboard).toBe(false);
    expect(config({ DEV_DASHBOARD: 'true' }, 'testing').dashboard).toBe(false);
  });

  it('DEV_DASHBOARD defaults to the environment the boot reads: off under NODE_ENV=production with APP_ENV unset', () => {
    expect(loadSettings(observabilitySettings, { NODE_ENV: 'production' }).DEV_DASHBOARD).toBe(false);
    expect(loadSettings(observabilitySettings, { NODE_ENV: 'production', APP_ENV: ' ' }).DEV_DASHBOARD).toBe(false);
    expect(loadSettings(observabilitySettings, { APP_ENV: 'testing' }).DEV_DASHBOARD).toBe(false);
    expect(loadSettings(observabilitySettings, {}).DEV_DASHBOARD).toBe(true);
    expect(loadSettings(observabilitySettings, { NODE_ENV: 'development' }).DEV_DASHBOARD).toBe(true);
  });

  it('OTEL_EXPORTER_OTLP_ENDPOINT: traces and metrics to <url>/v1/…, protobuf, parent-based sampling', () => {
    const c = config({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_SERVICE_NAME: 'api',
      OTEL_RESOURCE_ATTRIBUTES: 'service.version=1.2,team=a%20b',
    });
    expect(c.traces).toMatchObject({
      url: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      sampler: 'parentbased_always_on',
      timeoutMs: 10000,
      batch: { delayMs: 5000, maxQueueSize: 2048, maxBatchSize: 512 },
    });
    expect(c.otlpMetrics).toMatchObject({ url: 'http://collector:4318/v1/metrics', intervalMs: 60000 });
    expect(c.resource).toEqual({ 'service.name': 'api', 'service.version': '1.2', team: 'a b' });
    expect(config({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otlp.example.com/otlp/' }).traces!.url).toBe(
      'https://otlp.example.com/otlp/v1/traces',
    );
  });

  it('per-signal endpoints, exporters set to none, OTEL_SDK_DISABLED', () => {
    expect(config({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t:4318/custom' })).toMatchObject({
      traces: { url: 'http://t:4318/custom' },
      otlpMetrics: null,
    });
    expect(config({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' })).toMatchObject({
      traces: null,
      otlpMetrics: { url: 'http://c:4318/v1/metrics' },
    });
    expect(config({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true', METRICS_ENDPOINT: 'true' })).toMatchObject({
      traces: null,
      otlpMetrics: null,
      prometheus: { token: undefined },
    });
  });

  it('OTEL_EXPORTER_OTLP_HEADERS are percent-decoded; the batch size is at most the queue size', () => {
    const c = config({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=s%3Dcret, x-tenant = acme',
      OTEL_BSP_MAX_QUEUE_SIZE: '100',
    });
    expect(c.traces!.headers).toEqual({ 'api-key': 's=cret', 'x-tenant': 'acme' });
    expect(c.traces!.batch.maxBatchSize).toBe(100);
  });
});

describe('observability settings | each bad one is named', () => {
  it('gRPC, an unknown sampler, a ratio above 1, a relative endpoint, a malformed header list (never quoted), a short token', () => {
    expect(
      problems({
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_TRACES_SAMPLER: 'jaeger_remote',
        OTEL_TRACES_SAMPLER_ARG: '1.5',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318',
        OTEL_EXPORTER_OTLP_HEADERS: 'a=1,secret-api-key-xy',
        METRICS_TOKEN: 'short',
        OTEL_BSP_SCHEDULE_DELAY: '5s',
      }),
    ).toEqual([
      expect.stringMatching(
        /^OTEL_EXPORTER_OTLP_ENDPOINT="localhost:4318": protocol localhost: is not allowed; expected an absolute http or https URL/,
      ),
      expect.stringMatching(
        /^OTEL_EXPORTER_OTLP_PROTOCOL="grpc": bindery exports over OTLP\/HTTP only; point it at the collector's HTTP port \(4318\)/,
      ),
      'OTEL_EXPORTER_OTLP_HEADERS=<secret, 21 characters>: item 2 of 2 is not key=value; expected comma-separated key=value pairs, values percent-encoded, e.g. api-key=secret,tenant=acme',
      expect.stringMatching(/^OTEL_TRACES_SAMPLER="jaeger_remote": expected one of always_on, always_off, traceidratio/),
      expect.stringMatching(/^OTEL_TRACES_SAMPLER_ARG="1.5": not a number from 0 to 1/),
      expect.stringMatching(/^OTEL_BSP_SCHEDULE_DELAY="5s": not an integer/),
      expect.stringMatching(/^METRICS_TOKEN=<secret, 5 characters>: too short/),
    ]);
  });
});

describe('observability settings | documented', () => {
  it('.env.example names each one', async () => {
    const { readFile } = await import('node:fs/promises');
    const example = await readFile(new URL('../../../.env.example', import.meta.url), 'utf8');
    for (const name of Object.keys(observabilitySettings.specs)) expect(example).toMatch(new RegExp(`^(# )?${name}=`, 'm'));
  });
});
