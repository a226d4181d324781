import { describe, expect, it } from 'vitest';
import { currentContext, resolveActor, runInContext, SYSTEM_ACTOR, withActor } from '../../../runtime/context/execution-context.js';

const via = { kind: 'request', name: 'PATCH /api/documents/42' };

describe('ExecutionContext | attribution order (docs/spec.md 5.8)', () => {
  it('is system outside any context', async () => {
    expect(currentContext()).toBeUndefined();
    expect(await resolveActor()).toEqual(SYSTEM_ACTOR);
  });

  it('prefers the explicit actor over the signed-in user and the origin', async () => {
    const ctx = { via, resolveUser: async () => ({ type: 'user', id: '1' }), origin: { type: 'user', id: '9' } };
    const actor = await runInContext(ctx, () => withActor({ type: 'admin', id: '7' }, () => resolveActor()));
    expect(actor).toEqual({ type: 'admin', id: '7' });
  });

  it('uses the signed-in user, then the origin of queued work, then system', async () => {
    expect(
      await runInContext({ via, resolveUser: async () => ({ type: 'user', id: '1' }), origin: { type: 'user', id: '9' } }, () =>
        resolveActor(),
      ),
    ).toEqual({ type: 'user', id: '1' });
    expect(await runInContext({ via, resolveUser: async () => null, origin: { type: 'user', id: '9' } }, () => resolveActor())).toEqual({
      type: 'user',
      id: '9',
    });
    expect(await runInContext({ via }, () => resolveActor())).toEqual(SYSTEM_ACTOR);
  });

  it('fails when the signed-in user cannot be loaded', async () => {
    const ctx = {
      via,
      resolveUser: async () => {
        throw new Error('user 5 is gone');
      },
    };
    await expect(runInContext(ctx, () => resolveActor())).rejects.toThrow('user 5 is gone');
  });

  it('keeps the context across awaits and keeps via under withActor', async () => {
    const seen = await runInContext({ via, requestId: 'r1' }, async () => {
      await new Promise((r) => setTimeout(r, 1));
      return withActor({ type: 'user', id: '3' }, () => currentContext());
    });
    expect(seen).toMatchObject({ via, requestId: 'r1', actor: { type: 'user', id: '3' } });
  });
});
