/**
 * The policies registry (runtime/authorization; docs/authorization.md):
 * a rule decides one row in JavaScript and narrows a query in SQL, and the
 * two agree row by row for every caller; without a row, what depends on it
 * counts as possible; a token needs the action's ability; TypeScript
 * actions that throw never allow; definitions that disagree with the
 * policies stop the boot.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Policies, definePolicy } from '../../../runtime/authorization/index.js';
import { BinderyError } from '../../../runtime/errors/index.js';
import { authOf, authWorld, POLICY_TABLE, type AuthWorld } from './support.js';

let w: AuthWorld;
let docs: { d1: number; p1: number; d2: number };

beforeAll(async () => {
  w = await authWorld();
});
afterAll(async () => {
  await w?.f.close();
});
beforeEach(async () => {
  docs = await w.seed();
});

const rows = () => w.f.database.db.selectFrom('documents').selectAll().orderBy('id').execute();

describe('Policies | a rule decides a row and narrows a query alike', () => {
  const callers: [string, number | undefined][] = [
    ['a guest', undefined],
    ['the owner', 1],
    ['another user', 2],
    ['an admin', 9],
  ];
  const actions = ['documents.view', 'documents.update', 'documents.publish', 'documents.purge', 'documents.open', 'documents.remove'];

  it.each(callers)('for %s, every action: the rows decide() allows are the rows scope() selects', async (_who, id) => {
    const all = await rows();
    for (const action of actions) {
      const auth = authOf(w, id);
      const allowed: number[] = [];
      for (const row of all) if ((await w.policies.decide(auth, action, row)).allowed) allowed.push(row.id);
      const scope = await w.policies.scope(auth, action);
      const selected = (await w.f.database.db.selectFrom('documents').select('id').where(scope).orderBy('id').execute()).map((r) => r.id);
      expect({ action, selected }).toEqual({ action, selected: allowed });
    }
  });

  it('gives the expected rows: the owner theirs, published ones to anyone, everything to an admin', async () => {
    const ids = async (id: number | undefined, action: string) =>
      (
        await w.f.database.db
          .selectFrom('documents')
          .select('id')
          .where(await w.policies.scope(authOf(w, id), action))
          .orderBy('id')
          .execute()
      ).map((r) => r.id);
    expect(await ids(undefined, 'documents.view')).toEqual([docs.p1]);
    expect(await ids(1, 'documents.view')).toEqual([docs.d1, docs.p1]);
    expect(await ids(2, 'documents.view')).toEqual([docs.p1, docs.d2]);
    expect(await ids(9, 'documents.view')).toEqual([docs.d1, docs.p1, docs.d2]);
    expect(await ids(1, 'documents.publish')).toEqual([docs.d1]);
    expect(await ids(9, 'documents.update')).toEqual([]);
    expect(await ids(9, 'documents.remove')).toEqual([docs.d1, docs.p1, docs.d2]);
    expect(await ids(2, 'documents.remove')).toEqual([docs.d2]);
    expect(await ids(1, 'documents.purge')).toEqual([]);
    expect(await ids(undefined, 'documents.open')).toEqual([docs.d1, docs.p1, docs.d2]);
  });

  it('without a row: what depends on the row counts as possible; a guest is refused where a user is needed', async () => {
    const d = (id: number | undefined, action: string) => w.policies.decide(authOf(w, id), action);
    expect(await d(undefined, 'documents.update')).toEqual({ allowed: false, reason: 'guest' });
    expect(await d(undefined, 'documents.view')).toEqual({ allowed: true });
    expect(await d(1, 'documents.update')).toEqual({ allowed: true });
    expect(await d(1, 'documents.purge')).toEqual({ allowed: false, reason: 'rule' });
    expect(await d(undefined, 'documents.remove')).toEqual({ allowed: false, reason: 'guest' });
    expect(await d(1, 'users.view')).toEqual({ allowed: true });
  });
});

describe('Policies | tokens and TypeScript actions', () => {
  it("a bearer token also needs the action's ability (both must allow); a session user needs none", async () => {
    const [d1] = await rows();
    expect(await w.policies.decide(authOf(w, 1, ['docs:read']), 'documents.update', d1)).toEqual({
      allowed: false,
      reason: 'ability',
      ability: 'docs:write',
    });
    expect((await w.policies.decide(authOf(w, 1, ['docs:write']), 'documents.update', d1)).allowed).toBe(true);
    expect((await w.policies.decide(authOf(w, 2, ['docs:write']), 'documents.update', d1)).allowed).toBe(false);
    expect((await w.policies.decide(authOf(w, 1), 'documents.update', d1)).allowed).toBe(true);
    // The token narrows the scope to nothing; the rule alone (related rows) is asked with { ability: false }.
    const scope = await w.policies.scope(authOf(w, 1, []), 'documents.view');
    expect(await w.f.database.db.selectFrom('documents').select('id').where(scope).execute()).toEqual([]);
    const rule = await w.policies.scope(authOf(w, 1, []), 'documents.view', { ability: false });
    expect(await w.f.database.db.selectFrom('documents').select('id').where(rule).execute()).toHaveLength(2);
  });

  it('runs a check that returns a promise; only true allows', async () => {
    const [d1, , d2] = await rows();
    expect((await w.policies.decide(authOf(w, 1), 'documents.stamp', d1)).allowed).toBe(true);
    expect((await w.policies.decide(authOf(w, 1), 'documents.stamp', d2)).allowed).toBe(false);
    const loose = new Policies(
      POLICY_TABLE,
      [
        definePolicy('documents', {
          remove: { check: () => 1, scope: () => true },
          stamp: () => 'yes',
          explode: { check: () => undefined, scope: () => true },
        } as never),
      ],
      {
        db: w.f.database.db,
      },
    );
    for (const action of ['documents.remove', 'documents.stamp', 'documents.explode'])
      expect((await loose.decide(authOf(w, 1), action, d1)).allowed).toBe(false);
  });

  it('a check or scope that throws is BINDERY_POLICY_FAILED (a 500), never an allow', async () => {
    const [d1] = await rows();
    const thrown = await w.policies.decide(authOf(w, 1), 'documents.explode', d1).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(BinderyError);
    expect(thrown).toMatchObject({ code: 'BINDERY_POLICY_FAILED', status: 500 });
    expect((thrown as Error).message).toBe(
      'The policy action documents.explode failed: the policy blew up. The request is refused; fix the definePolicy function.',
    );
    await expect(w.policies.scope(authOf(w, 1), 'documents.explode')).rejects.toMatchObject({ code: 'BINDERY_POLICY_FAILED' });
    await expect(w.policies.scope(authOf(w, 1), 'documents.stamp')).rejects.toMatchObject({ code: 'BINDERY_POLICY_UNSCOPED' });
  });

  it('decides synchronously for views; a check that needs a promise is refused there', async () => {
    const [d1] = await rows();
    const user = await authOf(w, 1).user();
    expect(w.policies.decideNow(authOf(w, 1), user, 'documents.update', d1)).toBe(true);
    expect(w.policies.decideNow(authOf(w, 2), { id: 2, admin: false }, 'documents.update', d1)).toBe(false);
    expect(w.policies.decideNow(authOf(w, 1), user, 'documents.remove', d1)).toBe(true);
    expect(() => w.policies.decideNow(authOf(w, 1), user, 'documents.stamp', d1)).toThrow(/views need a synchronous check/);
  });
});

describe('Policies | boot checks', () => {
  it('refuses definitions that disagree with the policies, listing every problem', () => {
    const make = () =>
      new Policies(
        POLICY_TABLE,
        [
          definePolicy('documents', { remove: () => true, update: () => true, stamps: () => true } as never),
          definePolicy('document' as never, {} as never),
        ],
        { db: w.f.database.db },
      );
    expect(make).toThrow(BinderyError);
    expect(make).toThrow(
      [
        'The policies and their TypeScript definitions disagree:',
        '  - documents.remove is marked { code: true, scope: true } in the schema, so definePolicy must give it a scope: { check, scope: (user, eb) => … }',
        '  - documents.update has a rule in the schema; mark it "code" there to write it in TypeScript, or drop it from definePolicy',
        '  - definePolicy("documents") gives the action "stamps", which the policy does not declare (did you mean "stamp"?); add "stamps: code" to the policy in the schema',
        '  - definePolicy("document") names no policy of the schema (did you mean "documents"?); declare it under "policies:" in schema/*.yaml',
        '  - documents.stamp is marked "code" in the schema, but no definePolicy("documents", { stamp: … }) was given to authorization()',
        '  - documents.explode is marked "code" in the schema, but no definePolicy("documents", { explode: … }) was given to authorization()',
        'See docs/authorization.md "Writing a policy in TypeScript".',
      ].join('\n'),
    );
  });

  it('names an unknown action with the known ones', async () => {
    await expect(w.policies.decide(authOf(w, 1), 'documents.edit')).rejects.toThrow(
      /^No policy action is named "documents\.edit"; write it as <policy>\.<action>, one of: documents\.view, /,
    );
  });
});

describe('Policies | queries with the scope', () => {
  it('qualifies columns with the table, so the scope holds in a join', async () => {
    const scope = await w.policies.scope(authOf(w, 2), 'documents.view');
    const joined = await w.f.database.db
      .selectFrom('documents')
      .innerJoin('users', 'users.id', 'documents.owner_id')
      .select(['documents.slug', 'users.name'])
      .where(scope)
      .orderBy('documents.id')
      .execute();
    expect(joined).toEqual([
      { slug: 'p1', name: 'One' },
      { slug: 'd2', name: 'Two' },
    ]);
    const compiled = w.f.database.db.selectFrom('documents').select('id').where(scope).compile();
    expect(compiled.sql).toBe('select "id" from "documents" where ("documents"."owner_id" = $1 or "documents"."status" = $2)');
    expect(compiled.parameters).toEqual(['2', 'published']);
    expect((await sql`select 1 as one`.execute(w.f.database.db)).rows).toHaveLength(1);
  });
});
