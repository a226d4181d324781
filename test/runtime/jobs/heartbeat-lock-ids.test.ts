/**
 * The `lock_ids` of a worker heartbeat as each engine keeps a list
 * (docs/jobs.md "When a worker dies"): a native array where the engine has
 * arrays (PostgreSQL's `text[]`), JSON text elsewhere; read back either way.
 */
import { describe, expect, it } from 'vitest';
import { decodeLockIds, encodeLockIds } from '../../../runtime/jobs/worker-heartbeat.js';

describe('worker heartbeat | lock IDs by engine', () => {
  it('stays an array where the engine has arrays, and is JSON text where it has none', () => {
    expect(encodeLockIds(['pool-1', 'worker-2'], true)).toEqual(['pool-1', 'worker-2']);
    expect(encodeLockIds(['pool-1', 'worker-2'], false)).toBe('["pool-1","worker-2"]');
    expect(encodeLockIds([], false)).toBe('[]');
  });

  it('reads back what either wrote', () => {
    for (const arrays of [true, false]) expect(decodeLockIds(encodeLockIds(['pool-1', 'x'], arrays))).toEqual(['pool-1', 'x']);
    expect(decodeLockIds('{"not":"a list"}')).toEqual([]);
  });
});
