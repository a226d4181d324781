/**
 * Schema errors name `file:line:column: path: message`, every error of a run
 * is reported (sorted), and nothing is generated.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { formatDiagnostic, generate } from '../../generator/index.js';
import { tempProject, type TempProject } from './support.js';

const projects: TempProject[] = [];
afterAll(async () => {
  for (const p of projects) await p.remove();
});

/** Generate from the given schema files; the formatted diagnostics. */
async function errorsOf(files: Record<string, string>): Promise<string[]> {
  const project = await tempProject(Object.fromEntries(Object.entries(files).map(([name, text]) => [`schema/${name}`, text])));
  projects.push(project);
  const result = await generate({ root: project.root });
  expect(result.ok).toBe(false);
  expect(result.changed).toEqual([]);
  return result.diagnostics.map(formatDiagnostic);
}

const NOTE = `resources:
  Note:
    table: notes
    fields:
      id:    { type: bigint, primaryKey: true, generated: true }
      title: { type: string, max: 200 }
`;

describe('generate | schema errors with positions', () => {
  it('reports invalid YAML syntax at its position', async () => {
    expect(await errorsOf({ 'a.yaml': 'routes:\n  x: { method: GET\n' })).toEqual([
      'schema/a.yaml:3:1: routes.x.method: invalid YAML: Flow map in block collection must be sufficiently indented and end with a }',
    ]);
  });

  it('reports a duplicate key', async () => {
    expect(await errorsOf({ 'a.yaml': `${NOTE}      title: { type: text }\n` })).toEqual([
      'schema/a.yaml:7:7: resources.Note.fields.title: duplicate key "title" (first at line 6): a key may appear once per map; merge or rename the entries',
    ]);
  });

  it('reports a duplicate top-level key by its own name and position, not the last key before it', async () => {
    const routes = (name: string) => `routes:\n  ${name}:\n    method: GET\n    path: /${name}\n    result: ok\n`;
    expect(await errorsOf({ 'a.yaml': `${NOTE}${routes('first')}${routes('second')}` })).toEqual([
      'schema/a.yaml:12:1: routes: duplicate key "routes" (first at line 7): a key may appear once per map; merge or rename the entries',
    ]);
  });

  it('reports a duplicate key inside a list item at its position', async () => {
    const text = `${NOTE}    indexes:\n      - columns: [title]\n        columns: [id]\n`;
    expect(await errorsOf({ 'a.yaml': text })).toEqual([
      'schema/a.yaml:9:9: resources.Note.indexes[0].columns: duplicate key "columns" (first at line 8): a key may appear once per map; merge or rename the entries',
    ]);
  });

  it('reports an unknown key with a suggestion, and a missing key', async () => {
    expect(await errorsOf({ 'a.yaml': 'resources:\n  Note:\n    tabel: notes\n    fields:\n      id: { type: bigint }\n' })).toEqual([
      'schema/a.yaml:2:3: resources.Note: missing required key "table"',
      'schema/a.yaml:3:5: resources.Note.tabel: unknown key "tabel" (did you mean "table"?); allowed keys: description, table, fields, timestamps, softDelete, indexes, audit, backOffice, renamedFrom, relations, computed',
    ]);
  });

  it('reports an unknown field type with a suggestion', async () => {
    const errors = await errorsOf({ 'a.yaml': NOTE.replace('type: string, max', 'type: strng, max') });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^schema\/a\.yaml:6:22: resources\.Note\.fields\.title\.type: unknown field type "strng" \(did you mean "string"\?\); expected one of: string, text, /,
    );
  });

  it('reports an unknown rule, a bad rule parameter and a rule that does not apply', async () => {
    const schema = `${NOTE}routes:
  notes.create:
    method: POST
    path: /notes
    input:
      title: { type: string, validate: [required, "max:abc"] }
      tags:  { type: "string[]", validate: ["max:5", distinc, "each:alpha_dash"] }
      pinned: { type: boolean, validate: ["min:1"] }
    result: created
`;
    expect(await errorsOf({ 'notes.yaml': schema })).toEqual([
      'schema/notes.yaml:12:51: routes.notes.create.input.title.validate[1]: rule "max" needs a number, got "abc"',
      'schema/notes.yaml:13:54: routes.notes.create.input.tags.validate[1]: unknown rule "distinc" (did you mean "distinct"?)',
      'schema/notes.yaml:14:43: routes.notes.create.input.pinned.validate[0]: rule "min" does not apply to a boolean field (it applies to: string, numeric, array, file)',
    ]);
  });

  it('reports confirmed without its confirmation field, and same naming a missing field', async () => {
    const schema = `routes:
  account.register:
    method: POST
    path: /register
    input:
      password: { type: string, validate: [required, confirmed] }
      email:    { type: string, validate: ["same:emial"] }
    result: redirect
`;
    expect(await errorsOf({ 'a.yaml': schema })).toEqual([
      'schema/a.yaml:6:54: routes.account.register.input.password.validate[1]: rule "confirmed" compares "password" with the input field "password_confirmation", which this route does not declare; add it under input',
      'schema/a.yaml:7:44: routes.account.register.input.email.validate[0]: rule "same" names the input field "emial" (did you mean "email"?), which this route does not declare',
    ]);
  });

  it('reports an output naming a missing resource and an unknown group', async () => {
    const schema = `${NOTE}routes:
  notes.show:
    method: GET
    path: /notes
    group: wbe
    output: Notes
    result: ok
groups:
  web: { middleware: [] }
`;
    expect(await errorsOf({ 'a.yaml': schema })).toEqual([
      'schema/a.yaml:11:12: routes.notes.show.group: unknown group "wbe" (did you mean "web"?); declare it under "groups:"',
      'schema/a.yaml:12:13: routes.notes.show.output: unknown resource or shape "Notes" (did you mean "Note"?); declare it under "resources:" or "shapes:"',
    ]);
  });

  it('reports abilities on a route whose group lacks the token middleware', async () => {
    const schema = `groups:
  web: { middleware: [session] }
routes:
  me.show:
    method: GET
    path: /me
    group: web
    abilities: [profile:read]
    result: ok
`;
    expect(await errorsOf({ 'a.yaml': schema })).toEqual([
      'schema/a.yaml:8:5: routes.me.show.abilities: abilities are checked by the "token" middleware, which group "web" does not list (middleware: [session]); put the route in a group with "token" or remove "abilities"',
    ]);
  });

  it('reports a malformed ability and a repeated one', async () => {
    const schema = `groups:
  api: { middleware: [token, require] }
routes:
  me.api:
    method: GET
    path: /api/me
    group: api
    abilities: [profile:read, "profile read", profile:read]
    result: ok
`;
    expect(await errorsOf({ 'a.yaml': schema })).toEqual([
      'schema/a.yaml:8:16: routes.me.api.abilities: abilities has a duplicate item "profile:read"',
      'schema/a.yaml:8:31: routes.me.api.abilities[1]: "profile read" is not a valid value',
    ]);
  });

  it('reports a route name declared twice across files, and the same method and path twice', async () => {
    const route = (path: string): string =>
      `  notes.show:\n    method: GET\n    path: ${path}\n    input:\n      id: { type: integer, path: true }\n    result: ok\n`;
    const errors = await errorsOf({
      'a.yaml': `routes:\n${route('/notes/{id}')}`,
      'b.yaml': `routes:\n${route('/notes/{id}')}  notes.find:\n    method: GET\n    path: /notes/{key}\n    input:\n      key: { type: integer, path: true }\n    result: ok\n`,
    });
    expect(errors).toEqual([
      'schema/b.yaml:2:3: routes.notes.show: route "notes.show" is already declared at schema/a.yaml:2:3; rename one of them',
      'schema/b.yaml:10:11: routes.notes.find.path: GET /notes/{key} is already served by route "notes.show" at schema/a.yaml:2:3 (/notes/{id} and /notes/{key} match the same URLs); change the method or the path',
    ]);
  });

  it('reports a path parameter without a field and a path field not in the path', async () => {
    const schema = `routes:
  notes.show:
    method: GET
    path: /notes/{id}
    input:
      ident: { type: integer, path: true }
    result: ok
`;
    expect(await errorsOf({ 'a.yaml': schema })).toEqual([
      'schema/a.yaml:4:11: routes.notes.show.path: path parameter {id} has no input field bound to it; add e.g. "id: { type: integer, path: true }" under input',
      'schema/a.yaml:6:31: routes.notes.show.input.ident.path: "ident" is not a parameter of /notes/{id}; its parameters: id',
    ]);
  });

  it('reports a body field on a GET route and a file bound from JSON', async () => {
    const schema = `routes:
  notes.list:
    method: GET
    path: /notes
    input:
      limit: { type: integer }
      file:  { type: file, json: upload }
    result: ok
`;
    expect(await errorsOf({ 'a.yaml': schema })).toEqual([
      'schema/a.yaml:6:7: routes.notes.list.input.limit: a GET request has no body; bind "limit" with query, path or header',
      'schema/a.yaml:7:28: routes.notes.list.input.file.json: a file comes only from a multipart form field; use "form" instead of "json"',
    ]);
  });

  it('reports a table used twice, an audited resource without primary key and unique: live without soft delete', async () => {
    const schema = `${NOTE}  Memo:
    table: notes
    fields:
      slug: { type: string, unique: live }
    audit: { track: true }
`;
    expect(await errorsOf({ 'a.yaml': schema })).toEqual([
      'schema/a.yaml:10:29: resources.Memo.fields.slug.unique: "unique: live" means unique among rows not soft-deleted; add "softDelete: true" to the resource or use "unique: true"',
      'schema/a.yaml:11:5: resources.Memo.audit: an audited resource needs a primary key: each audit entry names its row by it; mark one field "primaryKey: true" or set "track: false"',
    ]);
    expect(await errorsOf({ 'a.yaml': `${NOTE}  Memo:\n    table: notes\n    fields:\n      slug: { type: string }\n` })).toEqual([
      'schema/a.yaml:8:12: resources.Memo.table: table "notes" is already used by resource Note; give each resource its own table',
    ]);
  });

  it('reports a default of the wrong type and a foreign key to a missing table', async () => {
    const schema = `${NOTE}      pinned: { type: boolean, default: "yes" }
      owner_id: { type: bigint, references: user.id }
`;
    expect(await errorsOf({ 'a.yaml': schema })).toEqual([
      'schema/a.yaml:7:41: resources.Note.fields.pinned.default: default must be true or false, got "yes"',
    ]);
    expect(await errorsOf({ 'a.yaml': `${NOTE}      owner_id: { type: bigint, references: user.id }\n` })).toEqual([
      'schema/a.yaml:7:33: resources.Note.fields.owner_id.references: references unknown table "user"; name the table of a resource',
    ]);
  });

  it('refuses a table the framework or a setup step creates, and names starting with bindery_', async () => {
    const errors = await errorsOf({ 'a.yaml': NOTE.replace('table: notes', 'table: audit_log') });
    expect(errors).toEqual([
      'schema/a.yaml:3:12: resources.Note.table: table "audit_log" is reserved: it is created by the audit setup step (runtime/audit), so this resource\'s migration would fail with "relation already exists"; choose another table name, e.g. "app_audit_log" (see "Reserved names" in docs/schema-language.md)',
    ]);
    expect(await errorsOf({ 'a.yaml': NOTE.replace('table: notes', 'table: bindery_migrations') })).toEqual([
      expect.stringMatching(
        /^schema\/a\.yaml:3:12: resources\.Note\.table: table "bindery_migrations" is reserved: it is created by the migrator, /,
      ),
    ]);
    expect(await errorsOf({ 'a.yaml': NOTE.replace('table: notes', 'table: bindery_things') })).toEqual([
      expect.stringMatching(
        /^schema\/a\.yaml:3:12: resources\.Note\.table: table "bindery_things" is reserved: .*names starting with "bindery_".*e\.g\. "app_things"/,
      ),
    ]);
  });

  it("refuses a table a listed plugin creates, read from the installed plugin's snapshot", async () => {
    const project = await tempProject({
      'package.json': JSON.stringify({ name: 'app', bindery: { plugins: ['@acme/things'] } }),
      'node_modules/@acme/things/generated/schema.snapshot.json': JSON.stringify({
        version: 1,
        lastMigration: '0001_create_things',
        tables: { acme_things: { columns: {}, indexes: {}, foreignKeys: {} } },
      }),
      'schema/a.yaml': NOTE.replace('table: notes', 'table: acme_things'),
    });
    projects.push(project);
    const result = await generate({ root: project.root });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      expect.stringMatching(
        /^schema\/a\.yaml:3:12: resources\.Note\.table: table "acme_things" is reserved: it is created by the plugin @acme\/things \(listed in package\.json "bindery\.plugins"\)/,
      ),
    ]);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['BINDERY_SCHEMA_RESERVED_TABLE']);
  });

  it('refuses prototype keys as field, input, group and binding names', async () => {
    const schema = `groups:
  constructor: { middleware: [] }
${NOTE}      __proto__: { type: string }
      meta: { type: json, default: { constructor: 1 } }
routes:
  notes.list:
    method: GET
    path: /notes
    input:
      prototype: { type: string, query: true }
      q: { type: string, query: __proto__ }
    result: ok
`;
    const reserved = (name: string) =>
      `"${name}" is reserved: every JavaScript object already has a "${name}", so a field, input or name called that would read or replace it; rename it (reserved: __proto__, constructor, prototype)`;
    expect(await errorsOf({ 'a.yaml': schema })).toEqual([
      `schema/a.yaml:2:3: groups.constructor: ${reserved('constructor')}`,
      `schema/a.yaml:9:7: resources.Note.fields.__proto__: ${reserved('__proto__')}`,
      `schema/a.yaml:16:7: routes.notes.list.input.prototype: ${reserved('prototype')}`,
      'schema/a.yaml:17:33: routes.notes.list.input.q.query: "__proto__" is reserved: every JavaScript object already has a "__proto__", so it cannot be a name; choose another (reserved: __proto__, constructor, prototype)',
    ]);
  });

  it("refuses an input default that breaks the field's own rules", async () => {
    const schema = `routes:
  notes.list:
    method: GET
    path: /notes
    input:
      limit: { type: integer, query: true, default: 500, validate: ["min:1", "max:100"] }
      sort:  { type: string, query: true, default: age, validate: ["in:title,created_at"] }
      page:  { type: integer, query: true, default: 1, validate: ["min:1"] }
    result: ok
`;
    expect(await errorsOf({ 'a.yaml': schema })).toEqual([
      'schema/a.yaml:6:53: routes.notes.list.input.limit.default: default 500 breaks the field\'s own rule "max:100", so every request that leaves the field out would be rejected; change the default or the rule',
      'schema/a.yaml:7:52: routes.notes.list.input.sort.default: default "age" breaks the field\'s own rule "in:title,created_at", so every request that leaves the field out would be rejected; change the default or the rule',
    ]);
  });

  it('reports a rule given twice, size rules no value passes, and a blank default of a required field', async () => {
    const schema = `routes:
  notes.create:
    method: POST
    path: /notes
    input:
      title: { type: string, default: "", validate: [required] }
      rank:  { type: integer, validate: [required, "min:5", "max:1"] }
      tags:  { type: "string[]", validate: ["between:1,3", "max:5", "max:2"] }
    result: ok
`;
    expect(await errorsOf({ 'a.yaml': schema })).toEqual([
      'schema/a.yaml:6:39: routes.notes.create.input.title.default: default "" breaks the field\'s own rule "required", so every request that leaves the field out would be rejected; change the default or the rule',
      'schema/a.yaml:7:61: routes.notes.create.input.rank.validate[2]: rule "max:1" contradicts "min:5" (validate[1]): no value is at least 5 and at most 1; change one of them',
      'schema/a.yaml:8:69: routes.notes.create.input.tags.validate[2]: rule "max" is already given as "max:5" (validate[1]); keep one',
    ]);
  });

  it('reports a value listed twice in in: or not_in: (numbers compared as numbers), with its position', async () => {
    const schema = `routes:
  notes.list:
    method: GET
    path: /notes
    input:
      kind: { type: string, query: true, validate: ["in:a,a,b"] }
      n:    { type: integer, query: true, validate: ["not_in:1,01"] }
      tags: { type: "string[]", query: true, validate: ["each:in:x,y,x"] }
    result: ok
`;
    expect(await errorsOf({ 'a.yaml': schema })).toEqual([
      'schema/a.yaml:6:53: routes.notes.list.input.kind.validate[0]: rule "in" lists "a" twice; list each value once, e.g. "in:a,b"',
      'schema/a.yaml:7:54: routes.notes.list.input.n.validate[0]: rule "not_in" lists "1" twice ("1" and "01" are the same number); list each value once, e.g. "not_in:1"',
      'schema/a.yaml:8:57: routes.notes.list.input.tags.validate[0]: rule "in" lists "x" twice; list each value once, e.g. "in:x,y"',
    ]);
  });

  it('asks to quote a list type written bare in a flow map, once per value', async () => {
    const schema = `${NOTE}      tags: { type: string[], default: [] }
routes:
  notes.list:
    method: GET
    path: /notes
    input:
      ids: {type: integer[], query: true}
    result: ok
`;
    expect(await errorsOf({ 'a.yaml': schema })).toEqual([
      'schema/a.yaml:7:21: resources.Note.fields.tags.type: quote the type: "string[]" (inside { … } a bare [ starts a list), e.g. { type: "string[]" }',
      'schema/a.yaml:13:19: routes.notes.list.input.ids.type: quote the type: "integer[]" (inside { … } a bare [ starts a list), e.g. { type: "integer[]" }',
    ]);
  });

  it('asks to quote a list rule a flow list cut at its commas', async () => {
    const schema = `routes:
  notes.create:
    method: POST
    path: /notes
    input:
      status: { type: string, validate: [required, in:draft,published] }
      rank:   { type: integer, validate: [between:1,5] }
    result: ok
`;
    expect(await errorsOf({ 'a.yaml': schema })).toEqual([
      'schema/a.yaml:7:53: routes.notes.create.input.rank.validate[1]: expected a rule (a rule string: name or name:parameters, e.g. "max:200"), got a number (5) — inside [ … ] a comma separates items; if it belongs to "between:1", quote the whole rule: "between:1,5"',
    ]);
    expect(await errorsOf({ 'a.yaml': schema.replace('      rank:   { type: integer, validate: [between:1,5] }\n', '') })).toEqual([
      'schema/a.yaml:6:61: routes.notes.create.input.status.validate[2]: unknown rule "published" — inside [ … ] a comma separates items; if it belongs to "in:draft", quote the whole rule: "in:draft,published"',
    ]);
  });

  it('reports a second YAML document in one file', async () => {
    expect(await errorsOf({ 'a.yaml': `${NOTE}---\nroutes: {}\n` })).toEqual([
      'schema/a.yaml:7:1: a schema file holds one YAML document, but a second one starts here ("---"); remove the line or move what follows into a file of its own',
    ]);
  });
});

describe('reserved names | one list, shown in the docs', () => {
  it("lists every table the framework's own migrations create, and docs/schema-language.md shows each reserved name", async () => {
    const { readFile, readdir } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { RESERVED_TABLES, PROTOTYPE_KEYS, RESERVED_TABLE_PREFIX } = await import('../../generator/language/reserved.js');
    const { REPO } = await import('./support.js');
    const created: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (entry.name.endsWith('.sql') && /\/migrations(\/(postgres|mysql))?$/.test(dir)) {
          for (const m of (await readFile(path, 'utf8')).matchAll(/create table (?:if not exists )?["`]?([a-z_][a-z0-9_]*)["`]?/gi))
            created.push(m[1]!);
        }
      }
    };
    await walk(join(REPO, 'runtime'));
    expect(created.length).toBeGreaterThan(5);
    const names = RESERVED_TABLES.map((t) => t.name);
    for (const table of created) expect(names, `table ${table} created by a framework migration`).toContain(table);
    const docs = await readFile(join(REPO, 'docs/schema-language.md'), 'utf8');
    for (const name of [...names, ...PROTOTYPE_KEYS, RESERVED_TABLE_PREFIX]) expect(docs).toContain(`\`${name}\``);
  });
});
