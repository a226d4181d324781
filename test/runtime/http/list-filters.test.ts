/**
 * A list filter on an enum field over real HTTP, from YAML through the
 * generator's model and validator (docs/schema-language.md "The query
 * parameters", "Enums"): a value outside the enum is a 422 on that filter
 * parameter, worded like the create route's refusal of the same value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpServerOptions } from '../../../runtime/http/server-options.js';
import { call, closeAll, postJson, startServer, type TestServer } from './support/server.js';
import { routesFromYaml } from './support/model-routes.js';

const SCHEMA = `
resources:
  Book:
    table: books
    fields:
      id:     { type: bigint, primaryKey: true, generated: true }
      title:  { type: string, max: 200 }
      genre:  { type: enum, values: [fiction, poetry] }
      labels: { type: "enum[]", values: [red, blue], default: [] }
    indexes:
      - { columns: [genre] }
      - { columns: [title] }
routes:
  books.create:
    method: POST
    path: /books
    input:
      title: { type: string, validate: [required] }
      genre: { type: enum, values: [fiction, poetry] }
    output: Book
    result: created
  books.list:
    method: GET
    path: /books
    list:
      resource: Book
      filter: { genre: eq, labels: contains, title: prefix }
    result: ok
`;

const echo = (input: unknown) => input;
let server: TestServer;

beforeAll(async () => {
  const routes = await routesFromYaml(SCHEMA);
  const handlers: HttpServerOptions['handlers'] = { 'books.create': echo, 'books.list': echo };
  server = await startServer({ routes, handlers });
});
afterAll(closeAll);

const list = (query: string) => call(`${server.url}/books?${query}`, { headers: { accept: 'application/json' } });

describe('list filters | an enum field', () => {
  it('answers 422 on filter[genre] for a value outside the enum, worded like the create route', async () => {
    const created = await postJson(`${server.url}/books`, { title: 'Odes', genre: 'comic' });
    expect(created.status).toBe(422);
    expect(created.json().errors).toEqual({ genre: 'The genre field must be one of: fiction, poetry.' });

    const listed = await list('filter[genre]=comic');
    expect(listed.status).toBe(422);
    expect(listed.headers.get('content-type')).toContain('application/problem+json');
    expect(listed.json().errors).toEqual({ 'filter[genre]': 'The filter[genre] field must be one of: fiction, poetry.' });
  });

  it('checks the value of contains on an enum list; prefix takes any text', async () => {
    const labels = await list('filter[labels]=green&filter[genre]=poem');
    expect(labels.status).toBe(422);
    expect(labels.json().errors).toEqual({
      'filter[genre]': 'The filter[genre] field must be one of: fiction, poetry.',
      'filter[labels]': 'The filter[labels] field must be one of: red, blue.',
    });
    const fine = await list('filter[genre]=poetry&filter[labels]=red&filter[title]=anything');
    expect(fine.status).toBe(200);
    expect(fine.json()).toMatchObject({ filter_genre: 'poetry', filter_labels: 'red', filter_title: 'anything' });
  });
});
