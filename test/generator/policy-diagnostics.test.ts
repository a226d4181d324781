/**
 * Policies and routes' `authorize:` that cannot work are refused by
 * `generate` with file:line:column (docs/authorization.md "When generate
 * refuses"): an unknown resource, action or column, a value the column
 * cannot hold, a route naming an unknown action, a scope a list or an
 * included relation cannot be narrowed by, a guest-only route whose rule
 * needs a user, a route of a policy whose kind implies no action.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { formatDiagnostic, generate } from '../../generator/index.js';
import { tempProject, type TempProject } from './support.js';

const projects: TempProject[] = [];
afterAll(async () => {
  for (const p of projects) await p.remove();
});

async function errorsOf(schema: string): Promise<string[]> {
  const project = await tempProject({ 'schema/a.yaml': schema });
  projects.push(project);
  const result = await generate({ root: project.root });
  expect(result.ok).toBe(false);
  expect(result.changed).toEqual([]);
  return result.diagnostics.map(formatDiagnostic);
}

const BASE = `groups:
  api: { middleware: [token] }
  web: { middleware: [session, csrf] }
resources:
  User:
    table: users
    fields:
      id:    { type: bigint, primaryKey: true, generated: true }
      admin: { type: boolean, default: false }
  Doc:
    table: docs
    fields:
      id:       { type: bigint, primaryKey: true, generated: true }
      owner_id: { type: bigint, references: users.id }
      status:   { type: enum, values: [draft, published] }
      tags:     { type: "string[]", default: [] }
`;

describe('generate | policies that name what does not exist', () => {
  it('refuses an unknown resource, column, value and action, each at its position', async () => {
    const errors = await errorsOf(`${BASE}policies:
  notes:
    actions:
      view: public
  other:
    resource: Dok
    actions:
      view: public
  docs:
    abilities:
      docs:read: [veiw]
    actions:
      view: { owner: ownr_id, row: { status: publishd }, user: { admn: true } }
      edit: { owner: tags, user: { admin: "yes" } }
`);
    expect(errors).toEqual([
      'schema/a.yaml:18:3: policies.notes: unknown resource: no resource has the table "notes", and it is not a table of the framework (api_tokens); name the resource with "resource:" or the framework table with "table:"',
      'schema/a.yaml:22:15: policies.other.resource: unknown resource "Dok" (did you mean "Doc"?); declare it under "resources:"',
      'schema/a.yaml:27:19: policies.docs.abilities.docs:read[0]: unknown action "veiw" (did you mean "view"?); the policy\'s actions: view, edit',
      'schema/a.yaml:29:22: policies.docs.actions.view.owner: unknown column "ownr_id" of Doc (did you mean "owner_id"?); its columns: id, owner_id, status, tags',
      'schema/a.yaml:29:46: policies.docs.actions.view.row.status: "publishd" is not one of the column\'s values: draft, published',
      'schema/a.yaml:29:66: policies.docs.actions.view.user.admn: unknown column "admn" of the users resource (User) (did you mean "admin"?); its columns: id, admin',
      'schema/a.yaml:30:22: policies.docs.actions.edit.owner: "tags" is a string list column; an owner column holds a user ID (integer, bigint, string, text or uuid)',
      'schema/a.yaml:30:43: policies.docs.actions.edit.user.admin: "yes" is not a boolean; write true or false',
    ]);
  });

  it('refuses a rule mixing code with conditions, two policies for one table, and an unknown key with a hint', async () => {
    const errors = await errorsOf(`${BASE}policies:
  docs:
    hideexistence: true
    actions:
      view: public
`);
    expect(errors).toEqual([
      'schema/a.yaml:19:5: policies.docs.hideexistence: unknown key "hideexistence" (did you mean "hideExistence"?); allowed keys: description, resource, table, hideExistence, abilities, actions',
    ]);
    expect(
      await errorsOf(`${BASE}policies:
  docs:
    actions:
      view: { owner: owner_id, code: true }
`),
    ).toEqual([
      'schema/a.yaml:20:15: policies.docs.actions.view.owner: a code rule is written in TypeScript whole; move "owner" into the definePolicy function',
    ]);
    expect(
      await errorsOf(`${BASE}policies:
  docs:
    actions:
      view: public
  more:
    resource: Doc
    actions:
      view: public
`),
    ).toEqual([
      'schema/a.yaml:21:3: policies.more: the table docs is already governed by the policy "docs" at schema/a.yaml:18:3; give each table one policy',
    ]);
  });
});

describe('generate | routes whose authorization cannot work', () => {
  it('refuses a route naming an unknown policy or action, with a hint', async () => {
    const errors = await errorsOf(`${BASE}policies:
  docs:
    actions:
      view: { owner: owner_id }
routes:
  docs.show:
    method: GET
    path: /docs/{id}
    group: api
    authorize: docs.veiw
    input: { id: { type: integer, path: true } }
    result: ok
  extra.show:
    method: GET
    path: /extra
    group: api
    authorize: { action: dogs.view }
    result: ok
`);
    expect(errors).toEqual([
      'schema/a.yaml:26:16: routes.docs.show.authorize: unknown action "veiw" of the policy docs (did you mean "view"?); its actions: view',
      'schema/a.yaml:33:26: routes.extra.show.authorize.action: unknown policy "dogs" (did you mean "docs"?); declare it under "policies:"',
    ]);
  });

  it('refuses a list or an include that a scope cannot narrow (a code rule without scope)', async () => {
    const errors = await errorsOf(`${BASE}policies:
  docs:
    actions:
      view: code
  users:
    actions:
      view: { code: true }
routes:
  docs.list:
    method: GET
    path: /docs
    group: api
    list: { resource: Doc }
    include: [owner]
    result: ok
`);
    expect(errors).toEqual([
      'schema/a.yaml:25:3: routes.docs.list: docs.view is written in TypeScript without a scope, which a list route cannot be narrowed by (a scope that cannot be expressed for a list); mark it { code: true, scope: true } and give definePolicy a scope, or use a declarative rule',
      'schema/a.yaml:30:15: routes.docs.list.include[0]: User rows are governed by the policy users, whose view action has no scope, so "owner" could not be narrowed to the rows the caller may see; mark it { code: true, scope: true }',
    ]);
  });

  it('refuses a guest-only route whose rule needs a user, a route of a policy whose kind implies no action, and a bad target', async () => {
    const errors = await errorsOf(`${BASE}policies:
  docs:
    actions:
      view:   { row: { status: published } }
      update: { owner: owner_id }
routes:
  docs.edit:
    method: PATCH
    path: /docs/{id}
    group: web
    input: { id: { type: integer, path: true } }
    result: ok
  docs.publish:
    method: POST
    path: /docs/{id}/publish
    group: api
    input: { id: { type: integer, path: true } }
    result: ok
  docs.open:
    method: GET
    path: /docs/{id}
    group: web
    input: { id: { type: integer, path: true } }
    result: ok
  docs.get:
    method: GET
    path: /api/docs/{id}
    group: api
    authorize: { action: docs.view, withDeleted: true }
    input: { id: { type: integer, path: true } }
    result: ok
  docs.find:
    method: GET
    path: /docs/by/{status}
    group: api
    authorize: { action: docs.update, target: status }
    input: { status: { type: string, path: true } }
    result: ok
`);
    expect(errors).toEqual([
      'schema/a.yaml:23:3: routes.docs.edit: docs.update never allows a guest, and every request to this route is one: its group "web" runs neither "auth" nor "token"; add one to the group\'s middleware',
      'schema/a.yaml:29:3: routes.docs.publish: route "docs.publish" belongs to the policy docs (by its name), but its kind (POST of one row, result ok) implies no action; name it, e.g. "authorize: docs.publish", or write "authorize: false" for a route without a policy',
      'schema/a.yaml:45:37: routes.docs.get.authorize.withDeleted: Doc has no soft delete; remove withDeleted',
      'schema/a.yaml:52:47: routes.docs.find.authorize.target: "status" is not a unique column of Doc; a row is found by id',
    ]);
  });

  it('generates when every route of a policy says or implies its action (docs.open: a guest may view a published row)', async () => {
    const project = await tempProject({
      'schema/a.yaml': `${BASE}policies:
  docs:
    actions:
      view:   { anyOf: [{ row: { status: published } }, { owner: owner_id }] }
      create: signedIn
routes:
  docs.open:
    method: GET
    path: /docs/{id}
    group: web
    input: { id: { type: integer, path: true } }
    result: ok
  docs.create:
    method: POST
    path: /docs
    group: api
    output: Doc
    result: created
  docs.ping:
    method: GET
    path: /docs/ping
    group: api
    authorize: false
    result: ok
`,
    });
    projects.push(project);
    const result = await generate({ root: project.root });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([]);
    const { readFile } = await import('node:fs/promises');
    const routes = await readFile(`${project.root}/generated/routes.ts`, 'utf8');
    expect(routes).toContain("authorize: { policy: 'docs', action: 'view', target: { field: 'id', column: 'id', withDeleted: false } }");
    expect(routes).toContain("authorize: { policy: 'docs', action: 'create' }");
    expect(routes.match(/authorize:/g)).toHaveLength(2);
  });
});
