/**
 * Mistakes in a route's `list:` (docs/schema-language.md "List routes") are
 * reported at file:line:column with a "did you mean"; a filter or sort on a
 * column no index starts with is a warning naming the index to add.
 */
import { readFile } from 'node:fs/promises';
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
  return {
    errors: result.diagnostics.map(formatDiagnostic),
    warnings: result.warnings.map(formatDiagnostic),
    ok: result.ok,
    changed: result.changed,
  };
}

const RESOURCES = `resources:
  User:
    table: users
    fields:
      id:   { type: bigint, primaryKey: true, generated: true }
      name: { type: string, max: 100, hidden: false }
  Note:
    table: notes
    fields:
      id:         { type: bigint, primaryKey: true, generated: true }
      owner_id:   { type: bigint, references: users.id }
      title:      { type: string, max: 200 }
      secret:     { type: string, hidden: true }
      tags:       { type: "string[]", default: [] }
      meta:       { type: json, nullable: true }
      rating:     { type: number, nullable: true }
      created_at: { type: timestamp, default: now }
    indexes:
      - { columns: [created_at] }
      - { columns: [title] }
routes:
`;

const route = (list: string, more = '') => `${RESOURCES}  notes.list:
    method: GET
    path: /notes
    list:
${list}
${more}    result: ok
`;

describe('generate | list routes', () => {
  it('accepts a list with every operator and include; warns for a filter no index serves', async () => {
    const result = await run(
      route(
        `      resource: Note
      sort: [created_at, title]
      filter: { title: prefix, tags: contains, created_at: range, owner_id: eq }`,
        '    include: [owner]\n',
      ),
    );
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([
      'schema/a.yaml:28:77: routes.notes.list.list.filter.owner_id: filtering by "owner_id" reads the whole table of Note: no index starts with "owner_id"; add "- { columns: [owner_id] }" under resources.Note.indexes',
    ]);
    expect(result.changed).toContain('generated/lists.ts');
  });

  it('reports unknown resources, fields and sort keys with a suggestion', async () => {
    const result = await run(
      route(`      resource: Note
      sort: [titel, secret]
      defaultSort: -created
      filter: { tilte: prefix }`),
    );
    expect(result.errors).toEqual([
      'schema/a.yaml:27:14: routes.notes.list.list.sort[0]: Note has no field "titel" (did you mean "title"?); a sort key names a field of the resource: id, owner_id, title, tags, meta, rating, created_at',
      'schema/a.yaml:27:21: routes.notes.list.list.sort[1]: "secret" is hidden (never sent to clients); a client cannot sort by it',
      'schema/a.yaml:29:17: routes.notes.list.list.filter.tilte: Note has no field "tilte" (did you mean "title"?); a filter names a field of the resource: id, owner_id, title, tags, meta, rating, created_at',
    ]);
    const unknown = await run(route('      resource: Nte'));
    expect(unknown.errors).toEqual([
      'schema/a.yaml:26:17: routes.notes.list.list.resource: unknown resource "Nte" (did you mean "Note"?); declare it under "resources:"',
    ]);
  });

  it('reports operators that do not apply, nullable or list sort keys, and an unknown operator or key', async () => {
    const result = await run(
      route(`      resource: Note
      sort: [rating, tags]
      filter: { title: range, tags: prefix, meta: eq, created_at: contains }`),
    );
    expect(result.errors).toEqual([
      'schema/a.yaml:27:14: routes.notes.list.list.sort[0]: cannot sort pages by "rating": a sort key must be a single, non-null value (it is nullable)',
      'schema/a.yaml:27:22: routes.notes.list.list.sort[1]: cannot sort pages by "tags": a sort key must be a single, non-null value (it is a string list)',
      'schema/a.yaml:28:24: routes.notes.list.list.filter.title: "title: range": range applies to numbers, durations and timestamps',
      'schema/a.yaml:28:37: routes.notes.list.list.filter.tags: "tags: prefix": prefix applies to string and text fields',
      'schema/a.yaml:28:51: routes.notes.list.list.filter.meta: "meta: eq": a json field cannot be filtered',
      'schema/a.yaml:28:67: routes.notes.list.list.filter.created_at: "created_at: contains": contains applies to list fields (the list holds the value) and string and text fields (the text holds it)',
    ]);
    const structural = await run(
      route(`      resource: Note
      sorts: [title]
      filter: { title: prefx }`),
    );
    expect(structural.errors.join('\n')).toMatch(/list\.sorts: unknown key "sorts" \(did you mean "sort"\?\)/);
    expect(structural.errors.join('\n')).toMatch(/list\.filter\.title: .*prefx/);
  });

  it('reports a list on a POST route, with an output, a clashing input key and a default limit over maxLimit', async () => {
    const result = await run(`${RESOURCES}  notes.list:
    method: POST
    path: /notes
    input:
      sort: { type: string }
    output: Note
    list:
      resource: Note
      limit: 50
      maxLimit: 20
    result: created
`);
    expect(result.errors).toEqual([
      'schema/a.yaml:23:13: routes.notes.list.method: a list route answers GET requests; change the method from POST to GET',
      'schema/a.yaml:26:7: routes.notes.list.input.sort: "sort" is a name the list adds to the input (limit, cursor, sort, filter_…); rename the field',
      'schema/a.yaml:27:5: routes.notes.list.output: a list route\'s output is its page of Note rows; remove "output", or declare a shape (e.g. { articles: "ArticleView[]", articlesCount: integer }) the handler builds from the page',
      'schema/a.yaml:30:14: routes.notes.list.list.limit: the default page size 50 is over maxLimit 20; lower it or raise maxLimit',
      'schema/a.yaml:32:13: routes.notes.list.result: a list route answers 200 with a page; use "result: ok"',
    ]);
  });
});

describe('generate | include', () => {
  it('reports include without an output and names that are no references field, with a suggestion', async () => {
    const result = await run(`${RESOURCES}  notes.show:
    method: GET
    path: /notes/{id}
    input:
      id: { type: integer, path: true }
    output: Note
    include: [ownr, title]
    result: ok
  notes.touch:
    method: POST
    path: /notes/touch
    include: [owner]
    result: noContent
`);
    expect(result.errors).toEqual([
      'schema/a.yaml:28:15: routes.notes.show.include[0]: Note has no relation or computed field "ownr" (nor a field "ownr_id" with "references") (did you mean "owner"?); include names a references field without its _id, a relation or a computed field (here: owner)',
      'schema/a.yaml:28:21: routes.notes.show.include[1]: Note has no relation or computed field "title" (nor a field "title_id" with "references"); include names a references field without its _id, a relation or a computed field (here: owner)',
      'schema/a.yaml:33:5: routes.notes.touch.include: include expands rows of the output; give the route an "output" (or a "list")',
    ]);
  });
});

describe('the JSON Schema for editors | list routes', () => {
  it('offers list: on a route, with its keys and the filter operators', async () => {
    const schema = JSON.parse(await readFile(new URL('../../generator/language/bindery.schema.json', import.meta.url), 'utf8'));
    expect(schema.definitions.route.properties.list).toEqual({ $ref: '#/definitions/list' });
    expect(Object.keys(schema.definitions.list.properties)).toEqual([
      'resource',
      'sort',
      'defaultSort',
      'paging',
      'filter',
      'limit',
      'maxLimit',
    ]);
    expect(schema.definitions.route.properties.include.items).toEqual({
      type: 'string',
      pattern: '^[a-z][A-Za-z0-9_]*(\\.[a-z][A-Za-z0-9_]*)*$',
    });
    expect(schema.definitions.list.properties.filter.additionalProperties.oneOf[0].enum).toEqual(['eq', 'prefix', 'contains', 'range']);
  });
});
