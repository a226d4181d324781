/**
 * W3C trace context (https://www.w3.org/TR/trace-context/) in and out:
 * reading a client's `traceparent`/`tracestate` headers (or a queued job's
 * stored ones), and writing a span's for a job to carry. OpenTelemetry's
 * propagator does the parsing: a malformed `traceparent` names no parent,
 * so the work starts a trace of its own. Loaded only when tracing is on.
 */
import { type Context, ROOT_CONTEXT, type Span, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { TraceCarrier } from '../context/work-telemetry.js';
import type { TraceContextCodec } from './work-scope.js';

const propagator = new W3CTraceContextPropagator();
const setter = { set: (carrier: Record<string, string>, key: string, value: string) => void (carrier[key] = value) };
const getter = {
  get: (carrier: Readonly<Record<string, unknown>>, key: string) => {
    const value = carrier[key];
    return typeof value === 'string' || Array.isArray(value) ? (value as string | string[]) : undefined;
  },
  keys: (carrier: Readonly<Record<string, unknown>>) => Object.keys(carrier),
};

/** The codec the work scopes use. */
export const w3cTraceContext: TraceContextCodec = {
  carrierOf(span: Span): TraceCarrier {
    const carrier: Record<string, string> = {};
    propagator.inject(trace.setSpan(ROOT_CONTEXT, span), carrier, setter);
    return carrier['tracestate'] === undefined
      ? { traceparent: carrier['traceparent']! }
      : { traceparent: carrier['traceparent']!, tracestate: carrier['tracestate'] };
  },
  contextOf(carrier: Readonly<Record<string, unknown>>): Context {
    // Most requests carry none: no parent, nothing to parse.
    if (carrier['traceparent'] === undefined) return ROOT_CONTEXT;
    return propagator.extract(ROOT_CONTEXT, carrier, getter);
  },
};
