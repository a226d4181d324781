/**
 * The policy hook of reverts (docs/audit.md "Revert" "Authorization"):
 * `policyAuthorizer(ctx)` asks `ctx.authorize` for the table's policy, checks
 * `revert` only when the policy declares it, and refuses an action the
 * policy lacks. No database: the request context and policies are stand-ins.
 */
import { describe, expect, it } from 'vitest';
import type { Policies } from '../../../runtime/authorization/policies.js';
import { policyAuthorizer } from '../../../runtime/audit/index.js';
import { HttpError } from '../../../runtime/errors/http-error.js';

function request(actions: readonly string[], refuse: readonly string[] = []) {
  const asked: string[] = [];
  const policies = {
    policyOfTable: (table: string) => (table === 'documents' ? 'documents' : undefined),
    has: (name: string) => actions.includes(name),
  } as unknown as Policies;
  const ctx = {
    services: { policies },
    async authorize(name: string, row?: unknown) {
      asked.push(`${name} ${JSON.stringify(row)}`);
      if (refuse.includes(name)) throw new HttpError(404, 'Document 1 does not exist.');
    },
  };
  return { ctx, asked };
}

describe('policyAuthorizer', () => {
  it('checks the performed action with ctx.authorize, and revert only when the policy declares it', async () => {
    const { ctx, asked } = request(['documents.update']);
    const hook = policyAuthorizer(ctx);
    expect(await hook('update', 'documents', { id: 1 })).toBe(true);
    expect(await hook('revert', 'documents', { id: 1 })).toBe(true);
    expect(asked).toEqual(['documents.update {"id":1}']);
  });

  it('refuses an action the policy does not declare, and passes the policy’s own refusal on (404 for a hidden row)', async () => {
    const { ctx } = request(['documents.update', 'documents.revert'], ['documents.revert']);
    const hook = policyAuthorizer(ctx);
    expect(await hook('create', 'documents', { id: 1 })).toBe(false);
    await expect(hook('revert', 'documents', { id: 1 })).rejects.toMatchObject({ status: 404 });
  });

  it('does not check a table without a policy, nor an app without policies', async () => {
    expect(await policyAuthorizer(request([]).ctx)('delete', 'gadgets', { id: 'x' })).toBe(true);
    expect(await policyAuthorizer({ services: {}, authorize: async () => {} })('delete', 'documents', {})).toBe(true);
  });
});
