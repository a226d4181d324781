/**
 * Type-level tests of the generated handler contracts (`generated/handlers.ts`):
 * a handler with the wrong input or result type fails the type check. Run by
 * `npm run test:types` (and the type check of `npm run check`).
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { Handlers } from '../../generated/handlers.js';
import type { Document, Note, NotesCreateInput, NotesShowInput } from '../../generated/types.js';
import type { RequestContext } from '../../runtime/http/context.js';
import { created, json, redirect, stream } from '../../runtime/results/result.js';

type HandlerFnOf<H> = Extract<H, (...args: never[]) => unknown>;
type NotesCreate = HandlerFnOf<Handlers['notes.create']>;
type NotesShow = HandlerFnOf<Handlers['notes.show']>;

const note: Note = { id: 1, title: 't', body: '', tags: [], created_at: new Date() } as unknown as Note;
const document = { id: '1', owner_id: '1', slug: 's', title: 't', body: '', status: 'draft' } as unknown as Document;

describe('generated handler contracts', () => {
  it('give each handler its route input, typed by the schema', () => {
    expectTypeOf<Parameters<NotesCreate>[0]>().toEqualTypeOf<NotesCreateInput>();
    expectTypeOf<NotesCreateInput['title']>().toEqualTypeOf<string>();
    expectTypeOf<NotesCreateInput['tags']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<Parameters<NotesShow>[0]>().toEqualTypeOf<NotesShowInput>();
    expectTypeOf<NotesShowInput['id']>().toEqualTypeOf<number>();
    expectTypeOf<Parameters<NotesCreate>[1]>().toEqualTypeOf<RequestContext>();
  });

  it('accept the declared result kind and refuse others', () => {
    const create: Handlers['notes.create'] = () => created(note);
    const show: Handlers['notes.show'] = async () => note;
    const showJson: Handlers['notes.show'] = () => json(note);
    expectTypeOf(create).toExtend<Handlers['notes.create']>();
    expectTypeOf(show).toExtend<Handlers['notes.show']>();
    expectTypeOf(showJson).toExtend<Handlers['notes.show']>();
    // @ts-expect-error a `created` route does not answer a bare number
    const wrongBody: Handlers['notes.create'] = () => 42;
    // @ts-expect-error `notes.show` answers a Note, not a string
    const wrongRow: Handlers['notes.show'] = () => 'note';
    // redirects are allowed for every route kind
    const toList: Handlers['notes.show'] = () => redirect('/notes');
    void [wrongBody, wrongRow, toList];
  });

  it('type a streamed route (result: stream) by its rows: a stream of them, not the array', () => {
    const exported: Handlers['documents.export'] = () => stream([[document]]);
    const fromKeyset: Handlers['documents.export'] = () =>
      stream(
        (async function* () {
          yield [document];
        })(),
        { onEnd: () => undefined },
      );
    expectTypeOf(exported).toExtend<Handlers['documents.export']>();
    expectTypeOf(fromKeyset).toExtend<Handlers['documents.export']>();
    // @ts-expect-error a streamed route returns stream(batches), not the array itself
    const whole: Handlers['documents.export'] = () => [document];
    // @ts-expect-error a stream of notes is not a stream of documents
    const wrongRows: Handlers['documents.export'] = () => stream([[note]]);
    void [whole, wrongRows];
  });

  it('read input fields with their schema types', () => {
    // @ts-expect-error `title` is a string, not a number
    const badInput: Handlers['notes.create'] = (input) => created({ ...note, title: input.title * 2 });
    // @ts-expect-error there is no `nope` field on the input
    const unknownField: Handlers['notes.create'] = (input) => created({ ...note, title: input.nope });
    void [badInput, unknownField];
  });

  it('cover every route of the schema', () => {
    expectTypeOf<keyof Handlers>().toExtend<string>();
    expectTypeOf<'notes.create' | 'notes.show' | 'accounts.login'>().toExtend<keyof Handlers>();
  });
});
