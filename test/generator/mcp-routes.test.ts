/**
 * The `mcp:` key of routes and groups (docs/schema-language.md "MCP tools"):
 * a route's own value wins over its group's, pages, redirects and uploads
 * are no tools, and `mcp: true` on one of them is an error at its position.
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

async function run(schema: string) {
  const project = await tempProject({ 'schema/a.yaml': schema });
  projects.push(project);
  const result = await generate({ root: project.root });
  return { result, root: project.root };
}

describe('generate | mcp: on routes and groups', () => {
  it('marks the routes of an mcp group and the routes saying mcp: true, and leaves out pages and mcp: false', async () => {
    const { result, root } = await run(`groups:
  api: { middleware: [token, require], mcp: true }
  web: { middleware: [session] }
routes:
  things.list: { method: GET, path: /api/things, group: api, result: ok }
  things.hidden: { method: GET, path: /api/hidden, group: api, mcp: false, result: ok }
  things.page: { method: GET, path: /things, group: web, result: page }
  things.web: { method: POST, path: /things, group: web, mcp: true, result: noContent }
`);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([]);
    const routes = await readFile(join(root, 'generated/routes.ts'), 'utf8');
    const mcpOf = (name: string) =>
      new RegExp(`name: '${name}',[^}]*?mcp: true`, 's').test(
        routes.slice(routes.indexOf(`name: '${name}'`), routes.indexOf(`name: '${name}'`) + 400),
      );
    expect(mcpOf('things.list')).toBe(true);
    expect(mcpOf('things.web')).toBe(true);
    expect(mcpOf('things.hidden')).toBe(false);
    expect(mcpOf('things.page')).toBe(false);
  });

  it('refuses mcp: true on a page', async () => {
    const { result } = await run(`groups:
  web: { middleware: [session] }
routes:
  things.page:
    method: GET
    path: /things
    group: web
    mcp: true
    result: page
`);
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'schema/a.yaml:8:10: routes.things.page.mcp: an MCP tool answers JSON, but its result is a page; remove "mcp: true"',
    ]);
  });
});
