/**
 * `routeOrigin()`: the route table carries only the schema file; messages get
 * the line and column of the route's key, looked up in the YAML.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { routeOrigin } from '../../../runtime/routing/route-origin.js';

const root = await mkdtemp(join(tmpdir(), 'bindery-origin-'));
afterAll(() => rm(root, { recursive: true, force: true }));
await mkdir(join(root, 'schema'));
await writeFile(
  join(root, 'schema/notes.yaml'),
  `# A comment
resources:
  Note:
    table: notes
    fields: { id: { type: bigint, primaryKey: true } }

routes:
  notes.list:
    method: GET
    path: /notes
    result: ok

  # another comment
  "notes.show":
    method: GET
`,
);

describe('routeOrigin', () => {
  it('gives file:line:column of the route key', () => {
    expect(routeOrigin({ name: 'notes.list', origin: 'schema/notes.yaml' }, root)).toBe('schema/notes.yaml:8:3');
    expect(routeOrigin({ name: 'notes.show', origin: 'schema/notes.yaml' }, root)).toBe('schema/notes.yaml:14:3');
  });

  it('falls back to the origin as it is', () => {
    expect(routeOrigin({ name: 'notes.gone', origin: 'schema/notes.yaml' }, root)).toBe('schema/notes.yaml');
    expect(routeOrigin({ name: 'notes.list', origin: 'schema/missing.yaml' }, root)).toBe('schema/missing.yaml');
    expect(routeOrigin({ name: 'asset', origin: 'assets/app.css' }, root)).toBe('assets/app.css');
  });
});
