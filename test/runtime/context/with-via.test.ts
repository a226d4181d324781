/**
 * `withVia` (runtime/context): code run through another via keeps the rest
 * of the context — the actor, the signed-in user, the request ID — and the
 * context outside is left as it was; outside any context the via alone.
 */
import { describe, expect, it } from 'vitest';
import { currentContext, resolveActor, runInContext, withActor, withVia } from '../../../runtime/context/execution-context.js';

describe('withVia', () => {
  it('replaces the via and keeps the request ID, IP, signed-in user and explicit actor', async () => {
    const outer = {
      via: { kind: 'request', name: 'POST /admin/documents' },
      requestId: 'r-1',
      ip: '127.0.0.1',
      resolveUser: async () => ({ type: 'user', id: '7' }),
    };
    await runInContext(outer, async () => {
      const inside = await withVia({ kind: 'admin', name: 'back-office documents.create' }, async () => {
        const c = currentContext()!;
        return { via: c.via, requestId: c.requestId, ip: c.ip, actor: await resolveActor(c) };
      });
      expect(inside).toEqual({
        via: { kind: 'admin', name: 'back-office documents.create' },
        requestId: 'r-1',
        ip: '127.0.0.1',
        actor: { type: 'user', id: '7' },
      });
      expect(currentContext()!.via).toEqual({ kind: 'request', name: 'POST /admin/documents' });
      const explicit = await withActor({ type: 'service', id: 's' }, () => withVia({ kind: 'admin', name: 'x' }, () => resolveActor()));
      expect(explicit).toEqual({ type: 'service', id: 's' });
    });
  });

  it('outside any context runs with the via alone (the system acts)', async () => {
    expect(currentContext()).toBeUndefined();
    const seen = await withVia({ kind: 'admin', name: 'y' }, async () => ({ via: currentContext()!.via, actor: await resolveActor() }));
    expect(seen).toEqual({ via: { kind: 'admin', name: 'y' }, actor: { type: 'system', id: '' } });
  });
});
