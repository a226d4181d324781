/**
 * `messages:` on an input field's rules (docs/i18n.md "Checks"): `generate`
 * refuses a key no catalog has, and a rule the field does not have, with
 * file:line:column; a key of the app's `lang/` or of bindery's catalogs passes
 * and reaches the route table.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { formatDiagnostic, generate } from '../../../generator/index.js';
import { tempProject, type TempProject } from '../../generator/support.js';

const projects: TempProject[] = [];
afterAll(async () => {
  for (const p of projects) await p.remove();
});

const schema = (messages: string) => `routes:
  posts.create:
    method: POST
    path: /posts
    input:
      title: { type: string, validate: [required, "max:10"], messages: ${messages} }
    result: ok
`;

async function run(messages: string) {
  const project = await tempProject({
    'schema/a.yaml': schema(messages),
    'lang/en/posts.yaml': 'title_required: "Give the post a {attribute}."\n',
  });
  projects.push(project);
  return { project, result: await generate({ root: project.root }) };
}

describe('generate | messages: keys', () => {
  it('refuses a key that no catalog has, at its position', async () => {
    const { result } = await run('{ required: posts.title_missing }');
    expect(result.ok).toBe(false);
    expect(result.changed).toEqual([]);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'schema/a.yaml:6:84: routes.posts.create.input.title.messages.required: the message key "posts.title_missing" is in no catalog; add it to lang/<locale>/posts.yaml (docs/i18n.md) or fix the key',
    ]);
  });

  it('refuses a message for a rule the field does not have', async () => {
    const { result } = await run('{ email: posts.title_required }');
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      expect.stringMatching(
        /^schema\/a\.yaml:6:\d+: routes\.posts\.create\.input\.title\.messages\.email: "messages" names the rule "email", which the field does not have/,
      ),
    ]);
  });

  it("accepts a key of the app's lang/ and of bindery's catalogs; the route table carries them", async () => {
    const { result, project } = await run('{ required: posts.title_required, max: validation.max.string }');
    expect(result.diagnostics).toEqual([]);
    expect(result.ok).toBe(true);
    const { readFile } = await import('node:fs/promises');
    const routes = await readFile(`${project.root}/generated/routes.ts`, 'utf8');
    expect(routes).toContain("messages: { required: 'posts.title_required', max: 'validation.max.string' }");
  });
});
