/**
 * The request-duration histogram bindery counts itself
 * (runtime/observability/duration-histogram.ts; docs/observability.md
 * "Metrics"): buckets with inclusive upper bounds, sum, count, min and max,
 * cumulative and delta readers side by side, and the series limit of
 * AppMetrics with its overflow series.
 */
import type { Attributes } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AggregationTemporality, type CollectionResult, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { DurationHistogram } from '../../../runtime/observability/duration-histogram.js';
import { AppMetrics, MAX_DURATION_SERIES, requestDurationHistogram } from '../../../runtime/observability/metrics.js';

const scope = { name: 'bindery', version: '0.0.0' };
const resource = resourceFromAttributes({ 'service.name': 'test' });

function points(result: CollectionResult): DataPoint<Histogram>[] {
  const metric = result.resourceMetrics.scopeMetrics[0]?.metrics[0];
  return (metric?.dataPoints ?? []) as DataPoint<Histogram>[];
}

describe('DurationHistogram', () => {
  it('counts each duration in the first bucket whose upper bound holds it, per series', async () => {
    const h = new DurationHistogram('http.server.request.duration', 'Duration.', [0.01, 0.1, 1]);
    const cumulative = h.producer(AggregationTemporality.CUMULATIVE, scope, resource);
    const ok: Attributes = { 'http.response.status_class': '2xx' };
    const bad: Attributes = { 'http.response.status_class': '4xx' };
    for (const s of [0.005, 0.01, 0.05, 2]) h.record(ok, s);
    h.record(bad, 0.5);

    const result = await cumulative.collect();
    expect(result.errors).toEqual([]);
    const metric = result.resourceMetrics.scopeMetrics[0]!.metrics[0]!;
    expect(metric.descriptor).toMatchObject({ name: 'http.server.request.duration', unit: 's' });
    expect(metric.aggregationTemporality).toBe(AggregationTemporality.CUMULATIVE);
    const [first, second] = points(result);
    expect(first!.attributes).toBe(ok);
    expect(first!.value).toEqual({
      buckets: { boundaries: [0.01, 0.1, 1], counts: [2, 1, 0, 1] },
      sum: 2.065,
      count: 4,
      min: 0.005,
      max: 2,
    });
    expect(second!.value.buckets.counts).toEqual([0, 0, 1, 0]);
  });

  it('keeps counting for a cumulative reader and starts again for a delta reader', async () => {
    const h = new DurationHistogram('d', 'Duration.', [1]);
    const cumulative = h.producer(AggregationTemporality.CUMULATIVE, scope, resource);
    const delta = h.producer(AggregationTemporality.DELTA, scope, resource);
    const series: Attributes = { route: '/notes' };
    h.record(series, 0.5);
    h.record(series, 3);
    expect(points(await delta.collect())[0]!.value).toMatchObject({ count: 2, min: 0.5, max: 3 });
    // Nothing new: the delta reader reports no series at all.
    expect((await delta.collect()).resourceMetrics.scopeMetrics).toEqual([]);
    h.record(series, 2);
    const later = points(await delta.collect())[0]!;
    expect(later.value).toMatchObject({ count: 1, sum: 2, min: 2, max: 2, buckets: { counts: [0, 1] } });
    expect(points(await cumulative.collect())[0]!.value).toMatchObject({
      count: 3,
      sum: 5.5,
      min: 0.5,
      max: 3,
      buckets: { counts: [1, 2] },
    });
  });
});

describe('AppMetrics | request durations', () => {
  it('makes one series per route, method and status class, and counts beyond the limit in one overflow series', async () => {
    const h = requestDurationHistogram();
    const reader = h.producer(AggregationTemporality.CUMULATIVE, scope, resource);
    const pool = { poolStats: () => ({ total: 0, idle: 0, waiting: 0, max: 10 }) };
    const metrics = new AppMetrics(new MeterProvider().getMeter('test'), { pool, poolName: 'test', jobsDb: () => null }, h);
    metrics.requestFinished('GET', '/notes', 200, 0.002);
    metrics.requestFinished('GET', '/notes', 204, 0.02);
    metrics.requestFinished('POST', '/notes', 422, 0.003);
    let all = points(await reader.collect());
    expect(all.map((p) => [p.attributes, p.value.count])).toEqual([
      [{ 'http.request.method': 'GET', 'http.route': '/notes', 'http.response.status_class': '2xx' }, 2],
      [{ 'http.request.method': 'POST', 'http.route': '/notes', 'http.response.status_class': '4xx' }, 1],
    ]);
    for (let i = 0; i < MAX_DURATION_SERIES; i++) metrics.requestFinished('GET', `/r${i}`, 200, 0.001);
    metrics.requestFinished('GET', '/notes', 200, 0.001);
    all = points(await reader.collect());
    expect(all).toHaveLength(MAX_DURATION_SERIES + 1);
    const overflow = all.find((p) => p.attributes['otel.metric.overflow'] === true);
    expect(overflow?.value.count).toBe(2);
    // A series made before the limit goes on counting in its own place.
    expect(all.find((p) => p.attributes['http.route'] === '/notes' && p.attributes['http.request.method'] === 'GET')?.value.count).toBe(3);
  });
});
