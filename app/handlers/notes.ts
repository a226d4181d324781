/**
 * Handlers of the notes routes (docs/spec.md 2.7, 4.3): the request-handling
 * reference application. Types come from `generated/handlers.ts`, so a
 * missing or mistyped handler fails `tsc`.
 */
import type { Handlers } from '../../generated/handlers.js';
import { NotFoundError, ValidationError } from 'bindery/errors';
import type { Kysely } from 'kysely';
import type { Database } from '../../generated/types.js';
import { lists } from '../../generated/lists.js';
import { compiledInsertReturning } from 'bindery/db';
import { created, noContent, page, redirectToRoute } from 'bindery/results';

type NotesHandlers = Pick<Handlers, 'notes.create' | 'notes.list' | 'notes.new' | 'notes.show' | 'notes.delete'>;

/** "Untitled" in any case and with any spacing ("Un titled", " UNTITLED "). */
function isUntitled(title: string): boolean {
  return title.replace(/\s+/g, '').toLowerCase() === 'untitled';
}

// The API's hot queries, compiled once (docs/database.md "Compiled queries").
const insertNote = compiledInsertReturning((db: Kysely<Database>, title: string, body: string, tags: string[]) =>
  db.insertInto('notes').values({ title, body, tags }),
);

export const notesHandlers = {
  'notes.create': {
    // Runs only once the field rules passed (docs/spec.md 4.5 step 5).
    validate(input) {
      if (isUntitled(input.title))
        throw new ValidationError({ title: 'The title field must not be "untitled"; give the note a real title.' }, undefined, {
          title: { key: 'app.errors.untitled', values: {} },
        });
    },
    async handle(input, ctx) {
      const note = await insertNote(ctx.services.db, input.title, input.body ?? '', input.tags ?? []);
      // A browser form post goes on to the new note, with a status message; API clients get 201 JSON.
      if (ctx.client.isBrowser && !ctx.client.wantsJson) {
        ctx.session.flash('status', ctx.t('app.flash.note_created'));
        return redirectToRoute('notes.show', { id: note.id });
      }
      return created(note, { location: ctx.url('notes.show', { id: note.id }) });
    },
  },

  // The page the schema's list: declares (limit, cursor, sort, filters); every note is listed.
  'notes.list': (input, ctx) => lists['notes.list'](ctx, input),

  'notes.new': (_input, ctx) => page('notes/new', { title: ctx.t('app.title.new_note') }),

  'notes.show': async (input, ctx) => {
    const note = await ctx.services.db.selectFrom('notes').selectAll().where('id', '=', input.id).executeTakeFirst();
    if (!note) throw new NotFoundError(`Note ${input.id} does not exist.`);
    if (ctx.client.isBrowser && !ctx.client.wantsJson) return page('notes/show', { title: note.title, note });
    return note;
  },

  'notes.delete': async (input, ctx) => {
    const deleted = await ctx.services.db.deleteFrom('notes').where('id', '=', input.id).executeTakeFirst();
    if (deleted.numDeletedRows === 0n) throw new NotFoundError(`Note ${input.id} does not exist.`);
    return noContent();
  },
} satisfies NotesHandlers;
