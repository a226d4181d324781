/**
 * The generated shape serializers (docs/schema-language.md "Output shapes")
 * write each object from its declared members only: members the handler's
 * value carries beyond the shape — at the top, in a projection, in nested
 * and listed objects — never reach the JSON. Nullable members absent are
 * null, optional ones absent stay absent, datetimes become RFC 3339 text.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.js';
import { tempProject, type TempProject } from './support.js';

const SCHEMA = `resources:
  User:
    table: users
    fields:
      id:         { type: bigint, primaryKey: true, generated: true }
      name:       { type: string, max: 100, json: username }
      password:   { type: string, hidden: true }
      bio:        { type: text, nullable: true, omitEmpty: true }
      created_at: { type: timestamp, default: now }
shapes:
  Author:
    from: User
    omit: [id]
    members:
      following: boolean
  Article:
    members:
      slug: string
      author: Author
      tags: "string[]"
      editedAt: { type: datetime, nullable: true }
      extra: { type: json, optional: true }
routes:
  articles.list:
    method: GET
    path: /articles
    output: { articles: "Article[]", articlesCount: integer, meta: { page: integer, next: { type: string, optional: true } } }
    result: ok
`;

let project: TempProject;
type Serialize = (value: unknown) => unknown;
let serializers: Record<string, Serialize>;

beforeAll(async () => {
  project = await tempProject({ 'schema/a.yaml': SCHEMA });
  const result = await generate({ root: project.root });
  expect(result.diagnostics).toEqual([]);
  serializers = (await import(pathToFileURL(join(project.root, 'generated/serializers.ts')).href)) as Record<string, Serialize>;
});
afterAll(async () => {
  await project.remove();
});

const row = { id: 1, name: 'ada', password: '$argon2id$secret', bio: '', created_at: new Date('2026-01-02T03:04:05.678Z') };

describe('generated shape serializers', () => {
  it('a projection keeps its fields under their JSON names, drops hidden and undeclared ones, applies omitEmpty', () => {
    expect(serializers['serializeAuthor']!({ ...row, following: true, token: 'x' })).toEqual({
      username: 'ada',
      created_at: '2026-01-02T03:04:05.678Z',
      following: true,
    });
  });

  it('an envelope writes only declared members, down through lists and nested objects', () => {
    const article = {
      slug: 'hello',
      author: { ...row, bio: 'hi', following: false, email: 'ada@example.com' },
      tags: ['a', 'b'],
      editedAt: new Date('2026-02-03T00:00:00.000Z'),
      secret: 'not declared',
    };
    const json = serializers['serializeArticlesListOutput']!({
      articles: [article, { ...article, slug: 'second', editedAt: undefined, extra: { any: ['json'] } }],
      articlesCount: 2,
      meta: { page: 1, cursor: 'not declared' },
      debug: true,
    });
    expect(json).toEqual({
      articles: [
        {
          slug: 'hello',
          author: { username: 'ada', bio: 'hi', created_at: '2026-01-02T03:04:05.678Z', following: false },
          tags: ['a', 'b'],
          editedAt: '2026-02-03T00:00:00.000Z',
        },
        {
          slug: 'second',
          author: { username: 'ada', bio: 'hi', created_at: '2026-01-02T03:04:05.678Z', following: false },
          tags: ['a', 'b'],
          editedAt: null,
          extra: { any: ['json'] },
        },
      ],
      articlesCount: 2,
      meta: { page: 1 },
    });
    expect(JSON.stringify(json)).not.toMatch(/secret|argon2|email|debug|cursor|password/);
    expect(Object.keys((json as { articles: object[] }).articles[0]!)).toEqual(['slug', 'author', 'tags', 'editedAt']);
  });
});
