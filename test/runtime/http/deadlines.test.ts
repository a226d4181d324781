import { afterEach, describe, expect, it } from 'vitest';
import { Deadlines, type DeadlineEntry } from '../../../runtime/http/deadlines.js';
import { waitFor } from './support/server.js';

interface Entry extends DeadlineEntry {
  name: string;
}
const entry = (name: string): Entry => ({ name, deadline: 0, prevPending: null, nextPending: null });

let list: Deadlines<Entry> | undefined;
afterEach(() => list?.stop());

describe('Deadlines | one sweep for all in-flight requests', () => {
  it('times out only the requests still tracked, oldest first, once each', async () => {
    const fired: string[] = [];
    list = new Deadlines<Entry>(40, (e) => fired.push(e.name));
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(entry) as [Entry, Entry, Entry, Entry];
    list.track(a);
    list.track(b);
    list.track(c);
    list.track(d);
    list.untrack(b);
    list.untrack(d);
    list.untrack(d);
    await waitFor(() => fired.length === 2, 1000, 'two timeouts');
    expect(fired).toEqual(['a', 'c']);
    await new Promise((r) => setTimeout(r, 60));
    expect(fired).toEqual(['a', 'c']);
    expect(a.deadline).toBe(0);
  });

  it('does not fire before the timeout', async () => {
    const fired: string[] = [];
    list = new Deadlines<Entry>(200, (e) => fired.push(e.name));
    const started = Date.now();
    list.track(entry('x'));
    await waitFor(() => fired.length === 1, 2000, 'the timeout');
    expect(Date.now() - started).toBeGreaterThanOrEqual(195);
    expect(list.tickMs).toBe(10);
    expect(new Deadlines(30_000, () => {}).tickMs).toBe(1000);
  });
});
