/**
 * Settings of the `observability()` step (docs/observability.md "Settings";
 * docs/settings.md). The `OTEL_*` ones are OpenTelemetry's standard
 * environment variables, read by bindery (also from `.env`) and checked at
 * boot like every other setting; their formats are the specification's
 * (milliseconds as plain integers, `key=value` lists).
 */
import { appEnvironment } from '../config/core-settings.js';
import { defineSettings } from '../config/define-settings.js';
import { booleanSetting, enumSetting, integerSetting, stringSetting, urlSetting } from '../config/parsers.js';
import type { ParseOutcome, SettingParser } from '../config/setting.js';

/** The samplers of `OTEL_TRACES_SAMPLER` bindery knows. */
export const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type SamplerName = (typeof SAMPLERS)[number];

/**
 * `key=value` pairs separated by commas (`OTEL_EXPORTER_OTLP_HEADERS`,
 * `OTEL_RESOURCE_ATTRIBUTES`): keys as written, values percent-decoded.
 */
export function keyValueListSetting(): SettingParser<Readonly<Record<string, string>>> {
  return {
    allowed: 'comma-separated key=value pairs, values percent-encoded, e.g. api-key=secret,tenant=acme',
    parse(text): ParseOutcome<Readonly<Record<string, string>>> {
      const out: Record<string, string> = {};
      const items = text.split(',');
      for (const [index, item] of items.entries()) {
        const pair = item.trim();
        if (pair === '') continue;
        const eq = pair.indexOf('=');
        // Named by position, never quoted: the values may be secrets (API keys).
        if (eq <= 0) return { ok: false, message: `item ${index + 1} of ${items.length} is not key=value` };
        const key = pair.slice(0, eq).trim();
        try {
          out[key] = decodeURIComponent(pair.slice(eq + 1).trim());
        } catch {
          return { ok: false, message: `the value of "${key}" is not valid percent-encoding` };
        }
      }
      return { ok: true, value: out };
    },
  };
}

/** A probability from 0 to 1 (`OTEL_TRACES_SAMPLER_ARG`). */
function ratioSetting(): SettingParser<number> {
  return {
    allowed: 'a number from 0 to 1, e.g. 0.25',
    parse(text) {
      const n = Number(text);
      if (!/^\d*\.?\d+$/.test(text) || !Number.isFinite(n) || n < 0 || n > 1) return { ok: false, message: 'not a number from 0 to 1' };
      return { ok: true, value: n };
    },
  };
}

/** `OTEL_EXPORTER_OTLP_PROTOCOL`: the OTLP/HTTP encodings bindery sends; gRPC is refused with the way out. */
function protocolSetting(): SettingParser<'http/protobuf' | 'http/json'> {
  return {
    allowed: 'http/protobuf or http/json',
    parse(text) {
      if (text === 'http/protobuf' || text === 'http/json') return { ok: true, value: text };
      if (text === 'grpc')
        return { ok: false, message: "bindery exports over OTLP/HTTP only; point it at the collector's HTTP port (4318)" };
      return { ok: false };
    },
  };
}

const milliseconds = (min: number) => integerSetting({ min, max: 3_600_000 });
const HTTP_URL = urlSetting({ protocols: ['http', 'https'] });

/** The settings declaration of the `observability()` step. */
export const observabilitySettings = defineSettings({
  OTEL_SDK_DISABLED: {
    description: 'Turn OpenTelemetry off entirely (traces and OTLP metrics), whatever the other OTEL_* settings say.',
    parser: booleanSetting(),
    default: 'false',
  },
  OTEL_SERVICE_NAME: {
    description: "The service name on every span and metric (resource attribute service.name). Unset: the app's name.",
    parser: stringSetting(),
    example: 'notes-api',
  },
  OTEL_RESOURCE_ATTRIBUTES: {
    description:
      'More resource attributes on every span and metric, as key=value pairs (deployment.environment.name=prod,service.version=1.4.2).',
    parser: keyValueListSetting(),
    example: 'deployment.environment.name=production',
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    description:
      'Base URL of the OTLP/HTTP receiver (a collector, Jaeger, a vendor); traces go to <url>/v1/traces, metrics to <url>/v1/metrics. Tracing is off while neither this nor OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set.',
    parser: HTTP_URL,
    example: 'http://localhost:4318',
  },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: {
    description: 'Full URL traces are sent to, instead of <OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces.',
    parser: HTTP_URL,
    example: 'http://localhost:4318/v1/traces',
  },
  OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: {
    description: 'Full URL metrics are sent to, instead of <OTEL_EXPORTER_OTLP_ENDPOINT>/v1/metrics.',
    parser: HTTP_URL,
    example: 'http://localhost:4318/v1/metrics',
  },
  OTEL_EXPORTER_OTLP_PROTOCOL: {
    description: 'How OTLP data is encoded on the wire.',
    parser: protocolSetting(),
    default: 'http/protobuf',
  },
  OTEL_EXPORTER_OTLP_HEADERS: {
    description: 'HTTP headers sent with every OTLP export, e.g. a vendor API key.',
    parser: keyValueListSetting(),
    secret: true,
  },
  OTEL_EXPORTER_OTLP_TIMEOUT: {
    description: 'Milliseconds one OTLP export may take (retries included) before it is given up and its data dropped.',
    parser: milliseconds(1),
    default: '10000',
  },
  OTEL_TRACES_EXPORTER: {
    description: 'otlp sends traces to the OTLP endpoint; none sends none.',
    parser: enumSetting(['otlp', 'none']),
    default: 'otlp',
  },
  OTEL_METRICS_EXPORTER: {
    description: 'otlp sends metrics to the OTLP endpoint; none sends none (METRICS_ENDPOINT still serves /metrics).',
    parser: enumSetting(['otlp', 'none']),
    default: 'otlp',
  },
  OTEL_TRACES_SAMPLER: {
    description: 'Which traces are kept. parentbased_*: follow the sampling decision of the client (traceparent) when there is one.',
    parser: enumSetting(SAMPLERS),
    default: 'parentbased_always_on',
  },
  OTEL_TRACES_SAMPLER_ARG: {
    description: 'The share of traces kept by traceidratio and parentbased_traceidratio, from 0 to 1.',
    parser: ratioSetting(),
    default: '1',
  },
  OTEL_METRIC_EXPORT_INTERVAL: {
    description: 'Milliseconds between two OTLP metric exports.',
    parser: milliseconds(100),
    default: '60000',
  },
  OTEL_BSP_SCHEDULE_DELAY: {
    description: 'Milliseconds finished spans wait before they are exported in a batch.',
    parser: milliseconds(1),
    default: '5000',
  },
  OTEL_BSP_MAX_QUEUE_SIZE: {
    description: 'Finished spans kept while waiting for export; beyond it new spans are dropped (a warning says how many).',
    parser: integerSetting({ min: 1, max: 1_000_000 }),
    default: '2048',
  },
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: {
    description: 'The most spans sent in one export (at most OTEL_BSP_MAX_QUEUE_SIZE).',
    parser: integerSetting({ min: 1, max: 1_000_000 }),
    default: '512',
  },
  METRICS_ENDPOINT: {
    description:
      'Serve the metrics in the Prometheus text format at GET /metrics, to scrapers sending Authorization: Bearer <METRICS_TOKEN>; outside production, clients on this machine read it without the token too.',
    parser: booleanSetting(),
    default: 'false',
  },
  METRICS_TOKEN: {
    description:
      'The bearer secret a scraper sends to GET /metrics (at least 16 characters). In production every client needs it, this machine included (403 while unset); outside production, clients on this machine need none.',
    parser: {
      allowed: 'at least 16 characters',
      parse: (text) => (text.length >= 16 ? { ok: true, value: text } : { ok: false, message: 'too short' }),
    },
    secret: true,
  },
  HTTP_ACCESS_LOG: {
    description: 'Write one log line per request: method, route, status, duration, request ID, trace ID, user ID.',
    parser: booleanSetting(),
    default: 'false',
  },
  DEV_DASHBOARD: {
    description:
      'Serve the development dashboard at /_bindery (recent requests with their SQL, mails, jobs, audit entries and errors; the job queue; the mail outbox). Only ever with APP_ENV=development; ignored (with a warning) in production. Default: on in development.',
    parser: booleanSetting(),
    default: (env) => (appEnvironment(env) === 'development' ? 'true' : 'false'),
  },
});
