/**
 * A small world for the authorization tests: the audit fixture's database
 * (users, documents, the audit log), hand-written policies of documents and
 * users (declarative rules and TypeScript ones), and a `who` middleware
 * that signs a request in from test headers — `x-user: <id>` (a session
 * user) and `x-abilities: a,b` (a bearer token with those abilities).
 */
import { RequestAuth } from '../../../runtime/context/request-auth.js';
import { definePolicy, Policies, type PolicyDefinition } from '../../../runtime/authorization/index.js';
import type { PolicyTable } from '../../../runtime/routing/policy-plan.js';
import type { BeforeMiddleware } from '../../../runtime/http/handler.js';
import { auditFixture, type AuditFixture } from '../audit/support.js';

/**
 * documents: owners see and change theirs, anyone sees published ones,
 * admins see everything (`view`); `remove` is TypeScript with a scope
 * (owner or admin); `stamp` TypeScript without one; `explode` throws;
 * `purge` is nobody's. users: yourself, or anyone for an admin.
 */
export const POLICY_TABLE: PolicyTable = {
  documents: {
    label: 'Document',
    table: 'documents',
    primaryKey: 'id',
    softDelete: 'deleted_at',
    hideExistence: true,
    actions: {
      view: {
        rule: { anyOf: [{ owner: 'owner_id' }, { row: { status: 'published' } }, { user: { admin: true } }] },
        scoped: true,
        ability: 'docs:read',
      },
      update: { rule: { owner: 'owner_id' }, scoped: true, ability: 'docs:write' },
      delete: { rule: { owner: 'owner_id' }, scoped: true, ability: 'docs:write' },
      restore: { rule: { owner: 'owner_id' }, scoped: true, ability: 'docs:write' },
      publish: { rule: { owner: 'owner_id', row: { status: 'draft' } }, scoped: true, ability: 'docs:write' },
      remove: { rule: 'code', scoped: true, ability: 'docs:write' },
      stamp: { rule: 'code', scoped: false, ability: 'docs:write' },
      explode: { rule: 'code', scoped: true, ability: 'docs:write' },
      purge: { rule: 'nobody', scoped: true, ability: 'docs:write' },
      open: { rule: 'public', scoped: true, ability: 'docs:read' },
    },
  },
  users: {
    label: 'User',
    table: 'users',
    primaryKey: 'id',
    softDelete: null,
    hideExistence: false,
    actions: {
      view: { rule: { anyOf: [{ owner: 'id' }, { user: { admin: true } }] }, scoped: true, ability: 'users:read' },
    },
  },
};

type Who = { id: number; admin: boolean };

/** The TypeScript actions of documents. */
export const DOCUMENT_CODE: PolicyDefinition = definePolicy('documents', {
  remove: {
    check: (user: Who, doc: { owner_id: number }) => user.admin || doc.owner_id === user.id,
    scope: (user: Who, eb: any) => user.admin || eb('documents.owner_id', '=', user.id),
  },
  stamp: (user: Who, doc: { owner_id: number }) => Promise.resolve(doc.owner_id === user.id),
  explode: {
    check: () => {
      throw new Error('the policy blew up');
    },
    scope: () => {
      throw new Error('the scope blew up');
    },
  },
} as never);

/** Signs a request in from `x-user` (and `x-abilities` for a bearer token); a guest without them. */
export function whoMiddleware(world: AuthWorld): BeforeMiddleware {
  return {
    before(ctx) {
      const id = ctx.request.headers['x-user'];
      if (typeof id !== 'string') return undefined;
      const abilities = ctx.request.headers['x-abilities'];
      const load = () =>
        world.f.database.db
          .selectFrom('users')
          .selectAll()
          .where('id', '=', Number(id))
          .executeTakeFirst()
          .then((u) => u ?? null);
      (ctx as { auth: unknown }).auth = new RequestAuth({
        via: typeof abilities === 'string' ? 'token' : 'session',
        id,
        load,
        ...(typeof abilities === 'string'
          ? { token: { id: '1', name: 't', abilities: abilities === '' ? [] : abilities.split(',') } }
          : {}),
      });
      return undefined;
    },
  };
}

/** The fixture with its policies. */
export interface AuthWorld {
  readonly f: AuditFixture;
  readonly policies: Policies;
  /** Users 1 and 2 (members) and 9 (an admin); documents of 1 (a draft `d1`, a published `p1`) and of 2 (a draft `d2`). */
  seed(): Promise<{ d1: number; p1: number; d2: number }>;
}

export async function authWorld(): Promise<AuthWorld> {
  const f = await auditFixture();
  // The fixture drops the documents → users key; the users are real rows here all the same.
  const policies = new Policies(POLICY_TABLE, [DOCUMENT_CODE], { db: f.database.db });
  return {
    f,
    policies,
    async seed() {
      await f.reset();
      await f.database.db.deleteFrom('users').execute();
      await f.database.db
        .insertInto('users')
        .values([
          { id: 1, name: 'One', email: 'one@example.test', password: 'x', admin: false },
          { id: 2, name: 'Two', email: 'two@example.test', password: 'x', admin: false },
          { id: 9, name: 'Admin', email: 'admin@example.test', password: 'x', admin: true },
        ])
        .execute();
      const add = (owner: number, slug: string, status: 'draft' | 'published') =>
        f.database.db
          .insertInto('documents')
          .values({ owner_id: owner, slug, title: slug, status })
          .returning('id')
          .executeTakeFirstOrThrow()
          .then((r) => r.id);
      return { d1: await add(1, 'd1', 'draft'), p1: await add(1, 'p1', 'published'), d2: await add(2, 'd2', 'draft') };
    },
  };
}

/** `RequestAuth` of a session user, a bearer token with `abilities`, or a guest (no `id`). */
export function authOf(world: AuthWorld, id?: number, abilities?: readonly string[]): RequestAuth {
  if (id === undefined) return new RequestAuth(null);
  const load = () =>
    world.f.database.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst()
      .then((u) => u ?? null);
  return new RequestAuth({
    via: abilities === undefined ? 'session' : 'token',
    id: String(id),
    load,
    ...(abilities !== undefined ? { token: { id: '1', name: 't', abilities } } : {}),
  });
}
