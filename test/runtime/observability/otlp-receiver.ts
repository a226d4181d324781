/**
 * A local OTLP/HTTP receiver for tests: a node:http server that accepts
 * `POST /v1/traces` and `POST /v1/metrics`, decodes OTLP JSON
 * (`application/json`) into flat spans and metric names, and counts
 * protobuf bodies (`application/x-protobuf`) without decoding them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as received, attributes flattened to plain values. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP span kind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly links: ReadonlyArray<{ readonly traceId: string; readonly spanId: string }>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  readonly status: number;
  readonly events: readonly string[];
  /** The resource's attributes. */
  readonly resource: Readonly<Record<string, unknown>>;
}

export interface OtlpReceiver {
  /** Base URL, e.g. `http://127.0.0.1:43123` (for OTEL_EXPORTER_OTLP_ENDPOINT). */
  readonly url: string;
  readonly spans: ReceivedSpan[];
  /** Names of the metrics received over OTLP JSON. */
  readonly metricNames: Set<string>;
  /** Bodies received by path and content type, e.g. `POST /v1/traces application/x-protobuf`. */
  readonly requests: string[];
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}

function plainValue(v: OtlpValue): unknown {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue !== undefined) return (v.arrayValue.values ?? []).map(plainValue);
  return undefined;
}

function attributesOf(list: Array<{ key: string; value: OtlpValue }> | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, plainValue(a.value)]));
}

/** Start a receiver on 127.0.0.1 and a free port. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const metricNames = new Set<string>();
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const type = (req.headers['content-type'] ?? '').split(';')[0]!;
      requests.push(`${req.method} ${req.url} ${type}`);
      if (type === 'application/json') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const rs of body.resourceSpans ?? []) {
          const resource = attributesOf(rs.resource?.attributes);
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? [])
              spans.push({
                traceId: s.traceId,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId ?? '',
                name: s.name,
                kind: s.kind,
                attributes: attributesOf(s.attributes),
                links: (s.links ?? []).map((l: { traceId: string; spanId: string }) => ({ traceId: l.traceId, spanId: l.spanId })),
                status: s.status?.code ?? 0,
                events: (s.events ?? []).map((e: { name: string }) => e.name),
                resource,
              });
        }
        for (const rm of body.resourceMetrics ?? [])
          for (const sm of rm.scopeMetrics ?? []) for (const m of sm.metrics ?? []) metricNames.add(m.name);
      }
      res.writeHead(200, { 'content-type': type || 'application/json' });
      res.end(type === 'application/json' ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    metricNames,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
