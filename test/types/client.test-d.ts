/**
 * Type-level tests of the generated API client (`generated/client.ts`): its
 * methods take each route's input in the client's names and promise the
 * route's answer type. Run by `npm run test:types` (and the type check of `npm run check`).
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  createClient,
  isApiError,
  type ApiError,
  type ErrorStatusOf,
  type NoteJson,
  type NotesCreateInput,
  type Redirect,
  type RouteErrors,
} from '../../generated/client.js';

type Client = ReturnType<typeof createClient>;

describe('generated API client', () => {
  it('has one method per route, keyed by route name', () => {
    expectTypeOf<Client>().toHaveProperty('notes');
    expectTypeOf<Client['notes']>().toHaveProperty('create');
    expectTypeOf<Client['notes']>().toHaveProperty('show');
  });

  it('takes the route input and promises the answer type', () => {
    expectTypeOf<Parameters<Client['notes']['create']>[0]>().toEqualTypeOf<NotesCreateInput>();
    expectTypeOf<ReturnType<Client['notes']['create']>>().toEqualTypeOf<Promise<NoteJson>>();
    expectTypeOf<ReturnType<Client['links']['forgot']>>().toEqualTypeOf<Promise<Redirect>>();
  });

  it('refuses input of the wrong shape', () => {
    const api = createClient({ baseUrl: 'http://localhost:3000' });
    // @ts-expect-error `title` is required
    void api.notes.create({ body: 'no title' });
    // @ts-expect-error `title` is a string
    void api.notes.create({ title: 42 });
    void api.notes.create({ title: 'ok', tags: ['a'] });
  });

  it('throws ApiError with problem details', () => {
    expectTypeOf<ApiError>().toHaveProperty('status').toEqualTypeOf<number>();
    expectTypeOf<ApiError>().toHaveProperty('forbidden').toEqualTypeOf<boolean>();
    expectTypeOf<ApiError>().toHaveProperty('unauthorized').toEqualTypeOf<boolean>();
  });

  it('types an error\'s status by its route: 401 and 403 for guarded routes (docs/authorization.md "Clients")', () => {
    expectTypeOf<RouteErrors['documents.update']>().toEqualTypeOf<400 | 401 | 403 | 404 | 422>();
    expectTypeOf<RouteErrors['documents.list']>().toEqualTypeOf<400 | 401 | 403 | 422>();
    expectTypeOf<RouteErrors['users.show']>().toEqualTypeOf<400 | 401 | 403 | 404 | 422>();
    expectTypeOf<RouteErrors['notes.create']>().toEqualTypeOf<400 | 422>();
    const caught: unknown = new Error('x');
    if (isApiError(caught, 'documents.delete')) {
      expectTypeOf(caught.status).toEqualTypeOf<ErrorStatusOf<'documents.delete'>>();
      expectTypeOf(caught.status).toEqualTypeOf<400 | 401 | 403 | 404 | 422 | 500 | 0>();
      // @ts-expect-error documents.delete never answers 429
      void (caught.status === 429);
    }
  });
});
