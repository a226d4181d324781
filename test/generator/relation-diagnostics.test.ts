/**
 * Mistakes in `relations:`, `computed:`, included paths and filters through
 * relations (docs/schema-language.md "Many-to-many relations", "Computed
 * fields", "Offset lists") are reported at file:line:column with a hint; a
 * policy refuses to compare a computed field.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { formatDiagnostic, generate } from '../../generator/index.js';
import { tempProject, type TempProject } from './support.js';

const projects: TempProject[] = [];
afterAll(async () => {
  for (const p of projects) await p.remove();
});

async function errorsOf(schema: string): Promise<string[]> {
  const project = await tempProject({ 'schema/a.yaml': schema });
  projects.push(project);
  const result = await generate({ root: project.root });
  return result.diagnostics.map(formatDiagnostic);
}

/** Users, articles, tags and three joins; `extra` goes under Article, `routes` after. */
const schema = (articleExtra: string, userExtra = '', rest = ''): string => `resources:
  User:
    table: users
    fields:
      id:       { type: bigint, primaryKey: true, generated: true }
      username: { type: string, max: 100, unique: true }
${userExtra}  Article:
    table: articles
    fields:
      id:        { type: bigint, primaryKey: true, generated: true }
      author_id: { type: bigint, references: users.id }
      title:     { type: string, max: 200 }
${articleExtra}  Tag:
    table: tags
    fields:
      id:   { type: bigint, primaryKey: true, generated: true }
      name: { type: string, max: 50, unique: true }
  ArticleTag:
    table: article_tags
    fields:
      article_id: { type: bigint, references: articles.id }
      tag_id:     { type: bigint, references: tags.id }
  Follow:
    table: follows
    fields:
      follower_id: { type: bigint, references: users.id }
      followee_id: { type: bigint, references: users.id }
${rest}`;

describe('generate | relations and computed fields', () => {
  it('accepts relations with found and named keys, computed fields, paths and filters through relations', async () => {
    expect(
      await errorsOf(
        schema(
          `    relations:
      tags: { through: ArticleTag }
    computed:
      tagCount: { count: tags }
`,
          `    relations:
      followers: { through: Follow, from: followee_id, to: follower_id }
    computed:
      following: { viewerIn: followers }
`,
          `routes:
  articles.list:
    method: GET
    path: /articles
    list:
      resource: Article
      paging: offset
      filter:
        tag: { through: tags, field: name, query: tag }
        author: { through: author, field: username, query: author }
    include: [author.following, tags, tagCount]
    result: ok
`,
        ),
      ),
    ).toEqual([]);
  });

  it('refuses a relation through a table that is not a resource, and an unknown resource', async () => {
    expect(
      await errorsOf(
        schema(`    relations:
      tags: { through: article_tags }
      labels: { through: ArticleTagz }
`),
      ),
    ).toEqual([
      'schema/a.yaml:14:24: resources.Article.relations.tags.through: "article_tags" is the table of the resource ArticleTag; through names the join resource: "through: ArticleTag"',
      'schema/a.yaml:15:26: resources.Article.relations.labels.through: "ArticleTagz" is not a resource of the schema (did you mean "ArticleTag"?); a relation goes through a join resource whose fields reference both ends — declare it under "resources:" (e.g. a table with article_id and the other key)',
    ]);
  });

  it('asks to name the keys of a join with two references to the same table, and refuses a bad key', async () => {
    expect(
      await errorsOf(
        schema(
          `    relations:
      tags: { through: ArticleTag, from: tag_id }
`,
          `    relations:
      followers: { through: Follow }
      fans: { through: Follow, from: followee_id, to: folower_id }
`,
        ),
      ),
    ).toEqual([
      'schema/a.yaml:8:7: resources.User.relations.followers: Follow has 2 fields referencing users (follower_id, followee_id); name the keys: "from: follower_id, to: followee_id"',
      'schema/a.yaml:9:55: resources.User.relations.fans.to: Follow.folower_id is not a field (did you mean "follower_id"?); to names the field of Follow referencing the related resource (references fields: follower_id (users.id), followee_id (users.id))',
      'schema/a.yaml:17:42: resources.Article.relations.tags.from: ArticleTag.tag_id does not reference articles; from names the field of ArticleTag referencing articles (references fields: article_id (articles.id), tag_id (tags.id))',
    ]);
  });

  it('refuses a computed field on a missing relation, viewerIn of a relation not to users, and a name taken', async () => {
    expect(
      await errorsOf(
        schema(`    relations:
      tags: { through: ArticleTag }
    computed:
      favoritesCount: { count: favoritedBy }
      tagged: { viewerIn: tags }
      title: { count: tags }
`),
      ),
    ).toEqual([
      'schema/a.yaml:16:32: resources.Article.computed.favoritesCount.count: Article has no relation "favoritedBy"; count names a many-to-many relation of the resource (here: tags)',
      'schema/a.yaml:17:27: resources.Article.computed.tagged.viewerIn: "tags" relates Article to Tag, not to the signed-in users (table users); viewerIn asks whether the signed-in user is among the related rows',
      'schema/a.yaml:18:7: resources.Article.computed.title: "title" is already the field "title" of Article; name the computed field otherwise',
    ]);
  });

  it('refuses an include path past a computed field and a filter through a missing relation', async () => {
    expect(
      await errorsOf(
        schema(
          `    relations:
      tags: { through: ArticleTag }
    computed:
      tagCount: { count: tags }
`,
          '',
          `routes:
  articles.list:
    method: GET
    path: /articles
    list:
      resource: Article
      filter:
        tag: { through: tagz, field: name }
        author: { through: author, field: email }
    result: ok
  articles.show:
    method: GET
    path: /articles/{id}
    input:
      id: { type: integer, path: true }
    output: Article
    include: [tagCount.x, tags.nope]
    result: ok
`,
        ),
      ),
    ).toEqual([
      'schema/a.yaml:39:25: routes.articles.list.list.filter.tag.through: Article has no relation "tagz" (did you mean "tags"?); through names a many-to-many relation or a references field without its _id (here: author, tags)',
      'schema/a.yaml:40:43: routes.articles.list.list.filter.author.field: User has no field "email"; with through, field names a field of the related resource User: id, username',
      'schema/a.yaml:48:15: routes.articles.show.include[0]: "tagCount" is a computed field of Article (a number); a path cannot go past it',
      'schema/a.yaml:48:27: routes.articles.show.include[1]: tags.nope: Tag has no relation or computed field "nope" (nor a field "nope_id" with "references"); include names a references field without its _id, a relation or a computed field',
    ]);
  });

  it('refuses sorting or filtering a list by a computed field', async () => {
    expect(
      await errorsOf(
        schema(
          `    relations:
      tags: { through: ArticleTag }
    computed:
      tag_count: { count: tags }
`,
          '',
          `routes:
  articles.list:
    method: GET
    path: /articles
    list:
      resource: Article
      sort: [tag_count]
      filter: { tag_count: eq }
    result: ok
`,
        ),
      ),
    ).toEqual([
      'schema/a.yaml:38:14: routes.articles.list.list.sort[0]: "tag_count" is a computed field of Article, not a column; a list sorts by columns',
      'schema/a.yaml:39:17: routes.articles.list.list.filter.tag_count: "tag_count" is a computed field of Article, not a column; a list filters by columns — filter through its relation instead: { through: tags, field: <a field of the related resource> }',
    ]);
  });

  it('refuses a policy comparing a computed field', async () => {
    expect(
      await errorsOf(
        schema(
          `    relations:
      tags: { through: ArticleTag }
    computed:
      tag_count: { count: tags }
`,
          '',
          `policies:
  articles:
    actions:
      view: { row: { tag_count: 0 } }
`,
        ),
      ),
    ).toEqual([
      'schema/a.yaml:35:22: policies.articles.actions.view.row.tag_count: "tag_count" is a computed field of Article, not a column; a policy compares the row\'s own columns (id, author_id, title) — decide on a computed field in a code rule (docs/authorization.md)',
    ]);
  });
});
