/**
 * `boundYoungGeneration` (docs/generator.md "Speed"): after it, V8's young
 * generation is `YOUNG_GENERATION_MB` and stays so, however much survives;
 * without it, it grows. Each case runs in a fresh process (the flag is
 * process-wide).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { YOUNG_GENERATION_MB } from '../../generator/heap.js';
import { REPO } from './support.js';

const run = promisify(execFile);

/** The new space's size before allocating 3 million objects, a tenth of them kept, and after, in a fresh process; `bound`: after `boundYoungGeneration`. */
async function newSpace(bound: boolean): Promise<{ before: number; after: number }> {
  const heap = pathToFileURL(join(REPO, 'generator/heap.ts')).href;
  const script = `
    const { boundYoungGeneration, youngGenerationSize: size } = await import(${JSON.stringify(heap)});
    if (${bound}) boundYoungGeneration();
    const before = size();
    const kept = [];
    for (let i = 0; i < 3e6; i++) { const o = { i, s: 'x' + i, a: [i] }; if (i % 10 === 0) kept.push(o); }
    console.log(JSON.stringify({ before, after: size(), kept: kept.length }));
  `;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO });
  return JSON.parse(stdout) as { before: number; after: number };
}

describe('boundYoungGeneration', () => {
  it('sets the young generation to its size and keeps it there; without it the young generation grows', async () => {
    const [bound, free] = await Promise.all([newSpace(true), newSpace(false)]);
    expect(bound.before).toBe(YOUNG_GENERATION_MB * 1024 * 1024);
    expect(bound.after).toBe(bound.before);
    expect(free.after).toBeGreaterThan(free.before);
  }, 60_000);
});
