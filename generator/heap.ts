/**
 * The memory of a `bindery generate` process: V8's young generation set to
 * a fixed size and held there (docs/generator.md "Speed").
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** The young generation (new space: two semi-spaces) that {@link boundYoungGeneration} holds, MB. */
export const YOUNG_GENERATION_MB = 16;

const MB = 1024 * 1024;

/** The new space's size now, bytes (0 where V8 does not report it). */
export function youngGenerationSize(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * Set V8's young generation (new space) of this process to
 * {@link YOUNG_GENERATION_MB} and stop it from growing, for a one-shot
 * command such as `bindery generate`; call it before the work that
 * allocates. V8 doubles the young generation each time many objects survive
 * a collection, up to a ceiling it sizes from the machine's memory: two
 * 64 MB semi-spaces with Node 24 on a machine with 24 GB, 128 MB of a
 * 1,000-route cold run's ~420 MB peak. At 16 MB the generator's short-lived
 * garbage (ajv's compilations, the printers' strings) still dies young, for
 * the same CPU; smaller, more of it is promoted to the old generation, and
 * both the CPU and the peak go up.
 *
 * V8 grows the young generation when a collection finds most of it alive:
 * below the size, this keeps a few MB of small arrays alive until it has
 * grown (a few milliseconds; they become garbage of the old generation),
 * then sets `--semi-space-growth-factor=1` with `v8.setFlagsFromString`. V8
 * reads that flag each time it considers growing (a ceiling such as
 * `--max-semi-space-size` is read only when the process starts, so it
 * cannot be set from inside). Node documents changing V8 flags after start
 * as unsupported; the flag only steers when the collector runs, so a V8
 * that ignored it would only use more memory. Not for a process that keeps
 * running (the dev server, an app), where a larger young generation saves
 * CPU.
 */
export function boundYoungGeneration(): void {
  const target = YOUNG_GENERATION_MB * MB;
  if (youngGenerationSize() < target) {
    setFlagsFromString('--semi-space-growth-factor=2');
    // Kept alive until the young generation has grown (or, where V8's ceiling is lower, twice the size was allocated).
    const kept: number[][] = [];
    for (let allocated = 0; allocated < 2 * target && youngGenerationSize() < target; allocated += 64 * 8 * 1024)
      for (let i = 0; i < 64; i++) kept.push(new Array<number>(1024).fill(i));
  }
  setFlagsFromString('--semi-space-growth-factor=1');
}
