/**
 * Enums in the schema: the mistakes reported at their position (with a
 * suggestion where one helps), and what a correct enum generates — literal
 * unions in the row, JSON, input and client types, OpenAPI `enum`, the
 * implied rule in the route table.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatDiagnostic, generate } from '../../generator/index.js';
import { tempProject, type TempProject } from './support.js';

const projects: TempProject[] = [];
afterAll(async () => {
  for (const p of projects) await p.remove();
});

async function run(schema: string): Promise<{ project: TempProject; errors: string[] }> {
  const project = await tempProject({ 'schema/a.yaml': schema });
  projects.push(project);
  const result = await generate({ root: project.root });
  return { project, errors: result.diagnostics.map(formatDiagnostic) };
}

const DOC = (status: string, input = '{ type: enum, values: [draft, published] }'): string => `resources:
  Doc:
    table: docs
    fields:
      id:     { type: bigint, primaryKey: true, generated: true }
      status: ${status}
      tags:   { type: "enum[]", values: [red, green], default: [], nullable: true }
routes:
  docs.create:
    method: POST
    path: /docs
    input:
      status: ${input}
      tags:   { type: "enum[]", values: [red, green] }
    output: Doc
    result: created
`;

describe('enums | schema errors with positions', () => {
  it('reports a default outside the values with a suggestion, values without an enum, an enum without values, max on an enum', async () => {
    expect((await run(DOC('{ type: enum, values: [draft, published], default: drafts }'))).errors).toEqual([
      'schema/a.yaml:6:66: resources.Doc.fields.status.default: default "drafts" is not one of the enum\'s values (draft, published) (did you mean "draft"?)',
    ]);
    expect((await run(DOC('{ type: string, values: [draft, published] }'))).errors).toEqual([
      'schema/a.yaml:6:31: resources.Doc.fields.status.values: "values" lists the values of an enum; use "type: enum" (or "enum[]"), or remove "values"',
    ]);
    expect((await run(DOC('{ type: enum, max: 20 }'))).errors).toEqual([
      'schema/a.yaml:6:17: resources.Doc.fields.status.type: an enum needs its values: add "values: [a, b, …]" (at least one)',
      'schema/a.yaml:6:29: resources.Doc.fields.status.max: "max" sets the length of a string field (varchar(n)); an enum is limited by its values — remove "max"',
    ]);
    expect(
      (await run(DOC('{ type: enum, values: [draft] }', '{ type: enum, values: [draft, published], default: publish }'))).errors,
    ).toEqual([
      'schema/a.yaml:13:66: routes.docs.create.input.status.default: default "publish" is not one of the enum\'s values (draft, published) (did you mean "published"?)',
    ]);
    expect((await run(DOC('{ type: enum, values: [draft, draft] }'))).errors).toEqual([
      expect.stringMatching(/^schema\/a\.yaml:6:\d+: resources\.Doc\.fields\.status\.values: /),
    ]);
  });

  it('generates literal unions, OpenAPI enums and the implied enum rule', async () => {
    const { project, errors } = await run(DOC('{ type: enum, values: [draft, published], default: draft }'));
    expect(errors).toEqual([]);
    const read = (path: string): Promise<string> => readFile(join(project.root, 'generated', path), 'utf8');
    const types = await read('types.ts');
    expect(types).toContain(`status: Generated<'draft' | 'published'>;`);
    expect(types).toContain(`tags: Generated<('red' | 'green')[] | null>;`);
    expect(types).toMatch(
      /export interface DocsCreateInput \{[^}]*status\?: 'draft' \| 'published';[^}]*tags\?: \('red' \| 'green'\)\[\];/,
    );
    const client = await read('client.ts');
    expect(client).toContain(`status?: 'draft' | 'published';`);
    const openapi = JSON.parse(await read('openapi.json')) as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    expect(openapi.components.schemas['Doc']!.properties['status']).toEqual({ type: 'string', enum: ['draft', 'published'] });
    expect(openapi.components.schemas['Doc']!.properties['tags']).toEqual({
      type: ['array', 'null'],
      items: { type: 'string', enum: ['red', 'green'] },
    });
    const routes = await read('routes.ts');
    expect(routes).toContain(`rules: [{ name: 'enum', params: ['draft', 'published'] }]`);
    expect(routes).toContain(`rules: [{ name: 'each', params: [], inner: { name: 'enum', params: ['red', 'green'] } }]`);
    const snapshot = await read('schema.snapshot.json');
    expect(snapshot).toContain('"values": [');
    const migration = await read('migrations/0001_create_docs.sql');
    expect(migration).toContain(`ALTER TABLE "docs" ADD CONSTRAINT "docs_tags_check" CHECK ("tags" <@ ARRAY['green', 'red']::text[]);`);
  });
});
