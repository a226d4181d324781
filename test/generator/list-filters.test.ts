/**
 * A list filter on an enum field (docs/schema-language.md "The query
 * parameters", "Enums"): its parameter has the enum's type everywhere the
 * generator writes it — the route's input type, the typed client, the
 * OpenAPI parameter — and carries the implied `enum` rule in the route table
 * and the validator, like an input field of the enum. `contains` on an enum
 * list checks its value too; `prefix`, and `contains` on a single enum (a
 * substring), take any text.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDiagnostic, generate } from '../../generator/index.js';
import { tempProject, type TempProject } from './support.js';

const SCHEMA = `resources:
  Shelf:
    table: shelves
    fields:
      id:   { type: bigint, primaryKey: true, generated: true }
      kind: { type: enum, values: [wood, steel] }
  Book:
    table: books
    fields:
      id:       { type: bigint, primaryKey: true, generated: true }
      shelf_id: { type: bigint, references: shelves.id }
      title:    { type: string, max: 200 }
      genre:    { type: enum, values: [fiction, poetry] }
      labels:   { type: "enum[]", values: [red, blue], default: [] }
    indexes:
      - { columns: [genre] }
      - { columns: [title] }
routes:
  books.list:
    method: GET
    path: /books
    list:
      resource: Book
      filter:
        genre: eq
        labels: contains
        title: prefix
        shelf: { through: shelf, field: kind, query: shelf }
    result: ok
`;

let project: TempProject;
const read = (path: string): Promise<string> => readFile(join(project.root, 'generated', path), 'utf8');

beforeAll(async () => {
  project = await tempProject({ 'schema/books.yaml': SCHEMA });
  const result = await generate({ root: project.root });
  expect(result.diagnostics.map(formatDiagnostic)).toEqual([]);
  expect(result.warnings.map(formatDiagnostic)).toEqual([]);
});
afterAll(() => project?.remove());

describe('generate | enum list filters', () => {
  it("types the parameter as the enum's union in the input type and the client", async () => {
    const types = await read('types.ts');
    expect(types).toContain("  filter_genre?: 'fiction' | 'poetry';\n");
    expect(types).toContain("  filter_labels?: 'red' | 'blue';\n");
    expect(types).toContain("  filter_shelf?: 'wood' | 'steel';\n");
    expect(types).toContain('  filter_title?: string;\n');
    const client = await read('client.ts');
    expect(client).toContain("  filter_genre?: 'fiction' | 'poetry';\n");
    expect(client).toContain("  filter_labels?: 'red' | 'blue';\n");
    expect(client).toContain("  filter_shelf?: 'wood' | 'steel';\n");
    expect(client).toContain('  filter_title?: string;\n');
  });

  it('gives the OpenAPI parameter the enum', async () => {
    const openapi = JSON.parse(await read('openapi.json'));
    const parameters = openapi.paths['/books'].get.parameters as { name: string; schema: Record<string, unknown> }[];
    const schema = (name: string) => parameters.find((p) => p.name === name)?.schema;
    expect(schema('filter[genre]')).toMatchObject({ type: 'string', enum: ['fiction', 'poetry'] });
    expect(schema('filter[labels]')).toMatchObject({ type: 'string', enum: ['red', 'blue'] });
    expect(schema('shelf')).toMatchObject({ type: 'string', enum: ['wood', 'steel'] });
    expect(schema('filter[title]')).not.toHaveProperty('enum');
  });

  it('puts the enum rule on the parameter in the route table', async () => {
    const routes = await read('routes.ts');
    expect(routes).toContain("        name: 'filter[genre]',\n        rules: [{ name: 'enum', params: ['fiction', 'poetry'] }],\n");
    expect(routes).toContain("        name: 'filter[labels]',\n        rules: [{ name: 'enum', params: ['red', 'blue'] }],\n");
    expect(routes).toContain("        name: 'filter[title]',\n        rules: [],\n");
  });
});
