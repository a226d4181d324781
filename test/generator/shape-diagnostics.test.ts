/**
 * Mistakes in output shapes (docs/schema-language.md "Output shapes") are
 * reported at file:line:column with a hint and a "did you mean": unknown
 * types and shapes, projections of missing or hidden fields, clashing
 * members and type names, shapes that contain themselves.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { formatDiagnostic, generate } from '../../generator/index.js';
import { tempProject, type TempProject } from './support.js';

const projects: TempProject[] = [];
afterAll(async () => {
  for (const p of projects) await p.remove();
});

async function run(schema: string) {
  const project = await tempProject({ 'schema/a.yaml': schema });
  projects.push(project);
  const result = await generate({ root: project.root });
  return { errors: result.diagnostics.map(formatDiagnostic), ok: result.ok };
}

const RESOURCES = `resources:
  User:
    table: users
    fields:
      id:       { type: bigint, primaryKey: true, generated: true }
      name:     { type: string, max: 100, json: username }
      password: { type: string, hidden: true }
`;

describe('generate | output shapes', () => {
  it('accepts named shapes, projections by key or JSON name, envelopes and lists', async () => {
    const { errors, ok } = await run(`${RESOURCES}shapes:
  Profile:
    from: User
    pick: [username]
    members:
      bio: { type: string, nullable: true }
      tree: { type: "Profile[]", optional: true }
routes:
  profiles.show:
    method: GET
    path: /profile
    output: { profile: Profile, users: "User[]", count: integer }
    result: ok
`);
    expect(errors).toEqual([]);
    expect(ok).toBe(true);
  });

  it('reports an unknown shape or type in an output and in a member, with a suggestion', async () => {
    const { errors } = await run(`${RESOURCES}shapes:
  Profile:
    members:
      name: strng
      seen: timestamp
      friend: Profle
routes:
  profiles.show:
    method: GET
    path: /profile
    output: { profile: Profiel }
    result: ok
`);
    expect(errors).toEqual([
      'schema/a.yaml:11:13: shapes.Profile.members.name: unknown type "strng" (did you mean "string"?); a member type is string, integer, number, boolean, datetime, json, a resource, a shape, T[] or an inline object { member: type }',
      'schema/a.yaml:12:13: shapes.Profile.members.seen: "timestamp" is a column type; a member of a shape is written "datetime"',
      'schema/a.yaml:13:15: shapes.Profile.members.friend: unknown resource or shape "Profle" (did you mean "Profile"?); declare it under "resources:" or "shapes:"',
      'schema/a.yaml:18:24: routes.profiles.show.output.profile: unknown resource or shape "Profiel" (did you mean "Profile"?); declare it under "resources:" or "shapes:"',
    ]);
  });

  it('reports a projection of a missing field, of a hidden field, of an unknown resource, and a member taking a kept name', async () => {
    const { errors } = await run(`${RESOURCES}shapes:
  A:
    from: User
    pick: [id, usrname, password]
  B:
    from: User
    omit: [id]
    members:
      username: string
  C:
    from: Usr
  D:
    from: User
    pick: [id]
    omit: [name]
  E:
    members: { a: string }
    pick: [id]
`);
    expect(errors).toEqual([
      'schema/a.yaml:11:16: shapes.A.pick[1]: User has no field "usrname" (did you mean "username"?); its fields: id, name',
      'schema/a.yaml:11:25: shapes.A.pick[2]: "password" is a hidden field of User: it never appears in JSON; remove it from pick',
      'schema/a.yaml:16:7: shapes.B.members.username: "username" is already a member from User; omit the field to replace it, or rename the member',
      'schema/a.yaml:18:11: shapes.C.from: unknown resource "Usr" (did you mean "User"?); a projection takes the fields of a resource declared under "resources:"',
      'schema/a.yaml:22:5: shapes.D.omit: a projection takes pick or omit, not both; keep one of them',
      'schema/a.yaml:25:5: shapes.E.pick: pick and omit choose fields of a resource; add "from: <Resource>"',
    ]);
  });

  it('reports a shape with neither members nor from, and an inline object with no member, before any other check', async () => {
    const { errors } = await run(`${RESOURCES}shapes:
  Empty:
    description: nothing
  Hollow:
    members: { a: {} }
`);
    expect(errors).toEqual([
      'schema/a.yaml:9:3: shapes.Empty: missing required key "members"',
      'schema/a.yaml:12:19: shapes.Hollow.members.a: type must not be empty; expected string, integer, number, boolean, datetime, json, a resource or shape name, T[] for a list, or a map of member → type (an inline object)',
    ]);
  });

  it('reports a name taken by a resource or its types, and a shape that contains itself', async () => {
    const { errors } = await run(`${RESOURCES}shapes:
  User:
    members: { a: string }
  UserJson:
    members: { a: string }
  Loop:
    members:
      next: Loop
      ok: { type: Loop, nullable: true }
      fine: { type: Loop, optional: true }
`);
    expect(errors).toEqual([
      'schema/a.yaml:9:3: shapes.User: shape User would declare the type User, already declared by resource User; rename the shape',
      'schema/a.yaml:9:3: shapes.User: shape User would declare the type UserJson, already declared by resource User; rename the shape',
      'schema/a.yaml:11:3: shapes.UserJson: shape UserJson would declare the type UserJson, already declared by resource User; rename the shape',
      'schema/a.yaml:13:3: shapes.Loop: shape Loop contains itself through members that are neither lists, nullable nor optional, so no value of it can be written; make one of them nullable, optional or a list',
    ]);
  });

  it('reports an output on a result without a body, include with a shape, optional on a whole output, and a clashing output type', async () => {
    const { errors } = await run(`${RESOURCES}shapes:
  NotesShowOutput:
    members: { a: string }
routes:
  notes.touch:
    method: POST
    path: /touch
    output: { ok: boolean }
    result: noContent
  notes.mine:
    method: GET
    path: /mine
    output: { users: "User[]" }
    include: [owner]
    result: ok
  notes.any:
    method: GET
    path: /any
    output: { type: string, optional: true }
    result: ok
  notes.show:
    method: GET
    path: /show
    output: { a: string }
    result: ok
`);
    expect(errors).toEqual([
      'schema/a.yaml:15:5: routes.notes.touch.output: a "noContent" result has no JSON body; remove "output" or use result ok, created or stream',
      'schema/a.yaml:21:5: routes.notes.mine.include: include expands rows of a resource output; in a shape, declare the related row as a member (e.g. author: User)',
      'schema/a.yaml:26:29: routes.notes.any.output.optional: optional applies to members of an object; a JSON body is always written',
      'schema/a.yaml:31:5: routes.notes.show.output: route "notes.show" would declare the type NotesShowOutput, already declared for shape NotesShowOutput; rename the route',
      'schema/a.yaml:31:5: routes.notes.show.output: route "notes.show" would declare the type NotesShowOutputJson, already declared for shape NotesShowOutput; rename the route',
    ]);
  });
});
