/**
 * Schema errors of nested input, group token schemes, error formats and
 * `auth:` on routes (docs/schema-language.md "Nested input", "Error
 * formats", "Optional authentication"): `generate` refuses with
 * file:line:column and a hint, and writes nothing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { formatDiagnostic, generate } from '../../generator/index.js';
import { tempProject, type TempProject } from './support.js';

const projects: TempProject[] = [];
afterAll(async () => {
  for (const p of projects) await p.remove();
});

async function errorsOf(yaml: string): Promise<string[]> {
  const project = await tempProject({ 'schema/a.yaml': yaml });
  projects.push(project);
  const result = await generate({ root: project.root });
  expect(result.ok).toBe(false);
  expect(result.changed).toEqual([]);
  return result.diagnostics.map(formatDiagnostic);
}

const route = (input: string) => `routes:
  users.create:
    method: POST
    path: /users
    input:
${input}
    result: ok
`;

describe('generate | nested input errors', () => {
  it('refuses fields on a type that is not object, and an object without fields', async () => {
    expect(await errorsOf(route('      user: { type: string, fields: { email: { type: string } } }'))).toEqual([
      'schema/a.yaml:6:29: routes.users.create.input.user.fields: "fields" lists the fields of an object; use "type: object" or remove "fields"',
    ]);
    expect(await errorsOf(route('      user: { type: object }'))).toEqual([
      'schema/a.yaml:6:21: routes.users.create.input.user.type: an object field lists its fields under "fields", e.g. fields: { email: { type: string } }',
    ]);
  });

  it('refuses a rule other than required on an object, a default, and tags inside', async () => {
    const errors = await errorsOf(
      route(`      user:
        type: object
        validate: [required, "max:3"]
        default: {}
        fields:
          email: { type: string, json: mail, validate: [required, email] }
          photo: { type: file }`),
    );
    expect(errors).toEqual([
      'schema/a.yaml:8:30: routes.users.create.input.user.validate[1]: an object takes only the rule "required"; put "max:3" on its fields',
      'schema/a.yaml:9:18: routes.users.create.input.user.default: an object field cannot have a default; give its fields defaults instead',
      'schema/a.yaml:11:34: routes.users.create.input.user.fields.email.json: a nested field is read from the member "email" of its object; remove "json" (rename the key instead)',
      'schema/a.yaml:12:20: routes.users.create.input.user.fields.photo.type: a file comes only from a multipart form field, never from inside a JSON object',
    ]);
  });

  it('refuses an object from a form, the query or a header, and a list of objects', async () => {
    expect(await errorsOf(route('      user: { type: object, form: u, fields: { email: { type: string } } }'))).toEqual([
      'schema/a.yaml:6:29: routes.users.create.input.user.form: an object field is read from a JSON body only; remove "form"',
    ]);
    const list = await errorsOf(route('      users: { type: "object[]", fields: { email: { type: string } } }'));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatch(/^schema\/a\.yaml:6:22: routes\.users\.create\.input\.users\.type: /);
  });

  it('checks cross-field rules against the fields of the same object', async () => {
    expect(
      await errorsOf(
        route(`      user:
        type: object
        fields:
          password: { type: string, validate: [confirmed] }
      password_confirmation: { type: string }`),
      ),
    ).toEqual([
      'schema/a.yaml:9:48: routes.users.create.input.user.fields.password.validate[0]: rule "confirmed" compares "password" with the input field "password_confirmation", which this route does not declare; add it under input',
    ]);
  });
});

describe('generate | token schemes, error formats and auth', () => {
  it('refuses a token scheme on a group without the token middleware, and a bad scheme', async () => {
    expect(await errorsOf('groups:\n  api:\n    middleware: [session]\n    token: { scheme: Token }\n')).toEqual([
      'schema/a.yaml:4:5: groups.api.token: the scheme is read by the "token" middleware, which this group does not list (middleware: [session]); add "token" or remove "token"',
    ]);
    expect(await errorsOf('groups:\n  b:\n    middleware: [token]\n    token: { scheme: "To ken" }\n')).toEqual([
      'schema/a.yaml:4:22: groups.b.token.scheme: "To ken" is not a valid scheme (the Authorization scheme: a word of letters, digits and -, e.g. Token or Bearer)',
    ]);
  });

  it('refuses an unknown error format, key style or rule name, with suggestions', async () => {
    expect(await errorsOf('groups:\n  api:\n    middleware: [token]\n    errors: list\n')).toEqual([
      'schema/a.yaml:4:13: groups.api.errors: unknown error format "list" (did you mean "lists"?); expected one of: problem, lists',
    ]);
    expect(
      await errorsOf(
        'groups:\n  api:\n    middleware: [token]\n    errors:\n      format: lists\n      keys: leaves\n      messages: { requird: x }\n',
      ),
    ).toEqual([
      'schema/a.yaml:6:13: groups.api.errors.keys: unknown key style "leaves"; expected path (user.email) or leaf (email)',
      'schema/a.yaml:7:19: groups.api.errors.messages.requird: unknown rule "requird" (did you mean "required"?); messages are keyed by rule names (docs/schema-language.md "Validation rules")',
    ]);
    expect(await errorsOf('groups:\n  api:\n    middleware: [token]\n    errors: { format: problem, keys: leaf }\n')).toEqual([
      'schema/a.yaml:4:32: groups.api.errors.keys: "keys" is an option of the lists format; problem details have fixed members (docs/errors.md)',
    ]);
  });

  it('refuses auth: on a route whose group does not authenticate', async () => {
    expect(
      await errorsOf(
        'groups:\n  web:\n    middleware: [session]\nroutes:\n  a.b:\n    method: GET\n    path: /a\n    group: web\n    auth: optional\n    result: ok\n',
      ),
    ).toEqual([
      'schema/a.yaml:9:11: routes.a.b.auth: "auth: optional" needs a group that authenticates (middleware "token" or "auth"), which group "web" does not list (middleware: [session])',
    ]);
  });
});
