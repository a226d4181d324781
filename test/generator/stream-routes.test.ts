/**
 * Unbounded answers in the schema (docs/http.md "Unbounded answers";
 * docs/schema-language.md "Results"): an output list of rows without a page
 * is a warning at its file:line:column unless the route streams it
 * (`result: stream`); a stream needs a list output; a streamed route is
 * typed, documented and called like an `ok` route of the same list.
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

async function run(routes: string) {
  const project = await tempProject({ 'schema/a.yaml': `${RESOURCES}${routes}` });
  projects.push(project);
  const result = await generate({ root: project.root });
  return {
    errors: result.diagnostics.map(formatDiagnostic),
    warnings: result.warnings.map(formatDiagnostic),
    read: (path: string) => readFile(join(project.root, 'generated', path), 'utf8'),
  };
}

const RESOURCES = `resources:
  Note:
    table: notes
    fields:
      id:    { type: bigint, primaryKey: true, generated: true }
      title: { type: string, max: 200 }
shapes:
  Card:
    members: { title: string }
routes:
`;

const get = (name: string, more: string) => `  ${name}:
    method: GET
    path: /${name.replace('.', '/')}
${more}`;

describe('generate | a list of rows without a page', () => {
  it('warns at the output, unless the route pages or streams it; lists of shapes are not checked', async () => {
    const result = await run(
      get('notes.all', '    output: "Note[]"\n    result: ok\n') +
        get('notes.pages', '    list: { resource: Note }\n    result: ok\n') +
        get('notes.export', '    output: "Note[]"\n    result: stream\n') +
        get('notes.cards', '    output: "Card[]"\n    result: ok\n') +
        get('notes.one', '    output: Note\n    result: ok\n'),
    );
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([
      'schema/a.yaml:14:13: routes.notes.all.output: "Note[]" answers every Note row the handler returns at once, in memory and in one body however many there are; page it with "list:" (docs/schema-language.md "List routes") or write it batch by batch with "result: stream" (docs/http.md "Unbounded answers")',
    ]);
  });
});

describe('generate | result: stream', () => {
  it('needs a list output', async () => {
    const result = await run(
      get('notes.none', '    result: stream\n') +
        get('notes.one', '    output: Note\n    result: stream\n') +
        get('notes.pages', '    list: { resource: Note }\n    result: stream\n'),
    );
    expect(result.errors).toEqual([
      'schema/a.yaml:14:13: routes.notes.none.result: a stream result writes the rows of a list output; add "output" (e.g. output: "Document[]")',
      'schema/a.yaml:18:5: routes.notes.one.output: a stream result writes a JSON array row by row; its output is a list (e.g. "Document[]"), not nullable — for one value use result ok',
      'schema/a.yaml:24:13: routes.notes.pages.result: a list route answers 200 with a page; use "result: ok"',
    ]);
  });

  it('types the handler with StreamResult, and documents and calls the route like an ok list', async () => {
    const result = await run(
      get('notes.export', '    output: "Note[]"\n    result: stream\n') + get('cards.export', '    output: "Card[]"\n    result: stream\n'),
    );
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    const handlers = await result.read('handlers.ts');
    expect(handlers).toContain("'notes.export': RouteHandler<NotesExportInput, ResultFor<'stream', Note[]>>;");
    expect(handlers).toContain("'cards.export': RouteHandler<CardsExportInput, ResultFor<'stream', Card[]>>;");
    const openapi = JSON.parse(await result.read('openapi.json'));
    expect(openapi.paths['/notes/export'].get.responses['200']).toEqual({
      description: 'OK: a JSON array, written batch by batch (no Content-Length).',
      content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Note' } } } },
    });
    const client = await result.read('client.ts');
    expect(client).toMatch(/export: \(input: NotesExportInput = \{\} as NotesExportInput, init\?: CallOptions\): Promise<NoteJson\[\]> =>/);
    expect(client).toContain("route: 'notes.export', method: 'GET', path: '/notes/export'");
    expect(client).toMatch(/route: 'notes\.export'[^\n]*answer: 'json'/);
    expect(await result.read('routes.ts')).toContain("result: 'stream',");
  });
});
