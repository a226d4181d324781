/**
 * A histogram that bindery counts itself and hands to OpenTelemetry's metric
 * readers when they collect (docs/observability.md "Metrics"): the
 * request-duration histogram, recorded on every request.
 *
 * OpenTelemetry's own histogram finds its series per call by hashing the
 * attribute set (sorting its keys, building a string) and stamps times as it
 * goes; about 0.7 µs a request in a loop, two to three times that inside a
 * busy server. Here a series is its attribute object, interned by the caller
 * ({@link AppMetrics}), and recording is a bucket search and a few additions.
 * The readers receive the series through the SDK's `MetricProducer`
 * extension point, one producer per reader with that reader's temporality
 * (cumulative for Prometheus; the OTLP exporter's, which
 * `OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE` chooses), in the same
 * data model as the SDK's histograms: explicit buckets with inclusive upper
 * bounds, sum, count, min and max.
 */
import type { Attributes, HrTime } from '@opentelemetry/api';
import { ValueType } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import { hrTime } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import {
  AggregationTemporality,
  DataPointType,
  type CollectionResult,
  type DataPoint,
  type Histogram,
  type MetricDescriptor,
  type MetricProducer,
} from '@opentelemetry/sdk-metrics';

/** The bucket bounds (seconds) OpenTelemetry advises for HTTP server durations; also used for jobs. */
export const DURATION_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** One series' counts since its reader's last collection (delta) or since the start (cumulative). */
interface Cell {
  readonly counts: number[];
  sum: number;
  count: number;
  min: number;
  max: number;
}

/** The series of one reader. */
class ReaderSeries implements MetricProducer {
  #cells = new Map<Attributes, Cell>();
  #start: HrTime = hrTime();

  constructor(
    readonly histogram: DurationHistogram,
    readonly temporality: AggregationTemporality,
    readonly scope: InstrumentationScope,
    readonly resource: Resource,
  ) {}

  add(series: Attributes, bucket: number, value: number): void {
    let cell = this.#cells.get(series);
    if (cell === undefined) {
      cell = { counts: new Array<number>(this.histogram.boundaries.length + 1).fill(0), sum: 0, count: 0, min: value, max: value };
      this.#cells.set(series, cell);
    }
    cell.counts[bucket]!++;
    cell.sum += value;
    cell.count++;
    if (value < cell.min) cell.min = value;
    if (value > cell.max) cell.max = value;
  }

  async collect(): Promise<CollectionResult> {
    const endTime = hrTime();
    const boundaries = [...this.histogram.boundaries];
    const dataPoints: DataPoint<Histogram>[] = [];
    for (const [attributes, cell] of this.#cells)
      dataPoints.push({
        startTime: this.#start,
        endTime,
        attributes,
        value: { buckets: { boundaries, counts: [...cell.counts] }, sum: cell.sum, count: cell.count, min: cell.min, max: cell.max },
      });
    if (this.temporality === AggregationTemporality.DELTA) {
      this.#cells = new Map();
      this.#start = endTime;
    }
    const metrics =
      dataPoints.length === 0
        ? []
        : [
            {
              scope: this.scope,
              metrics: [
                {
                  descriptor: this.histogram.descriptor,
                  aggregationTemporality: this.temporality,
                  dataPointType: DataPointType.HISTOGRAM as const,
                  dataPoints,
                },
              ],
            },
          ];
    return { resourceMetrics: { resource: this.resource, scopeMetrics: metrics }, errors: [] };
  }
}

/**
 * A histogram of durations in seconds, reported to every reader that asked
 * for a {@link DurationHistogram.producer}. A series is identified by its
 * attribute object: the caller passes the same object for the same
 * attributes (a new object with equal values is a second series).
 */
export class DurationHistogram {
  readonly descriptor: MetricDescriptor;
  readonly #readers: ReaderSeries[] = [];

  /**
   * @param name the metric's name, e.g. `http.server.request.duration`.
   * @param boundaries the buckets' inclusive upper bounds, ascending (seconds).
   */
  constructor(
    name: string,
    description: string,
    readonly boundaries: readonly number[] = DURATION_BUCKETS,
  ) {
    this.descriptor = { name, description, unit: 's', valueType: ValueType.DOUBLE };
  }

  /**
   * The producer to give one metric reader (its `metricProducers` option).
   * @param temporality the reader's, for histograms: cumulative keeps counting, delta starts again at each collection.
   * @param scope the instrumentation scope the series are reported under.
   * @param resource the app's (the reader keeps the SDK's own; required by the producer's result).
   */
  producer(temporality: AggregationTemporality, scope: InstrumentationScope, resource: Resource): MetricProducer {
    const reader = new ReaderSeries(this, temporality, scope, resource);
    this.#readers.push(reader);
    return reader;
  }

  /**
   * Count one duration.
   * @param series the series' attributes (an interned object, see the class doc).
   * @param seconds the duration, in seconds.
   */
  record(series: Attributes, seconds: number): void {
    const bounds = this.boundaries;
    let bucket = 0;
    while (bucket < bounds.length && seconds > bounds[bucket]!) bucket++;
    for (const reader of this.#readers) reader.add(series, bucket, seconds);
  }
}
