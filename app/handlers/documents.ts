/**
 * Handlers of the documents routes (docs/spec.md 2.6, 3 "Document row", 4.2;
 * docs/audit.md): the audit reference application. Writes go through the
 * tracked model `ctx.services.models.Document`, so each has its audit entry;
 * reads (show, export, history) use the database directly and are not logged.
 *
 * Who may do what is the policy `documents` (schema/documents.yaml;
 * docs/authorization.md), which the runtime enforces before a handler runs:
 * a route naming one document hands its handler that document (the third
 * argument), already found and allowed — another user's is 404, like one
 * that does not exist; the list is narrowed to the caller's documents; the
 * archive's bulk write is narrowed by the policy too.
 */
import { randomBytes } from 'node:crypto';
import type { Handlers } from '../../generated/handlers.js';
import { isUniqueViolation } from 'bindery/db';
import { NotFoundError, ValidationError } from 'bindery/errors';
import { created, keysetBatches, noContent, stream } from 'bindery/results';
import { callerId } from './caller.js';
import { lists } from '../../generated/lists.js';

type DocumentsHandlers = Pick<
  Handlers,
  | 'documents.create'
  | 'documents.list'
  | 'documents.export'
  | 'documents.archive'
  | 'documents.show'
  | 'documents.update'
  | 'documents.delete'
  | 'documents.restore'
  | 'documents.history'
>;

/** Events per history page (docs/spec.md 8 "history page"). */
export const HISTORY_PAGE = 50;

/** The partial unique index keeping live slugs unique (schema/documents.yaml). */
const SLUG_INDEX = 'documents_slug_live_key';

/** A document that went away between the policy's check and the write (or, for restore, one that is not deleted). */
const missing = (id: number) => new NotFoundError(`Document ${id} does not exist.`);

/** A duplicate live slug is a field error on `slug` (422); anything else is rethrown. */
function slugTaken(error: unknown): never {
  if (isUniqueViolation(error, SLUG_INDEX)) throw new ValidationError({ slug: 'The slug has already been taken.' });
  throw error;
}

export const documentsHandlers = {
  'documents.create': async (input, ctx) => {
    const document = await ctx.services.models.Document.create({
      owner_id: callerId(ctx),
      slug: input.slug,
      title: input.title,
      body: input.body ?? '',
      status: input.status ?? 'draft',
      share_token: randomBytes(24).toString('base64url'),
    }).catch(slugTaken);
    return created(document, { location: ctx.url('documents.show', { id: document.id }) });
  },

  // The policy's view scope narrows the page to the caller's documents.
  'documents.list': (input, ctx) => lists['documents.list'](ctx, input),

  // Every live document of the caller, read and written a batch at a time, however many there are
  // (docs/http.md "Unbounded answers"). The event is recorded when the export ends, before its
  // closing bracket: a complete export always has its entry (docs/audit.md "The reference application").
  'documents.export': async (_input, ctx) => {
    const caller = callerId(ctx);
    const documents = ctx.services.db
      .selectFrom('documents')
      .selectAll()
      .where(await ctx.scope('documents.export'))
      .where('deleted_at', 'is', null);
    return stream(keysetBatches(documents, { key: 'id' }), {
      onEnd: ({ rows, complete }) =>
        ctx.services.audit.record({
          action: 'documents.exported',
          subject: { type: 'users', id: caller },
          details: complete ? { documents: rows } : { documents: rows, complete: false },
        }),
    });
  },

  // One statement over the rows the policy's archive scope allows: the caller's.
  'documents.archive': async (_input, ctx) => {
    const archived = await ctx.services.models.Document.query()
      .authorize('archive')
      .where('status', '=', 'published')
      .update({ status: 'archived' });
    return { archived };
  },

  'documents.show': (_input, _ctx, document) => document,

  'documents.update': async (input, ctx, document) => {
    const updated = await ctx.services.models.Document.update(document.id, {
      title: input.title,
      body: input.body,
      status: input.status,
    });
    if (!updated) throw missing(document.id);
    return updated;
  },

  'documents.delete': async (_input, ctx, document) => {
    const deleted = await ctx.services.models.Document.delete(document.id);
    if (!deleted) throw missing(document.id);
    return noContent();
  },

  'documents.restore': async (_input, ctx, document) => {
    const restored = await ctx.services.models.Document.restore(document.id).catch(slugTaken);
    if (!restored) throw missing(document.id);
    return restored;
  },

  // Deleted documents keep their history (docs/spec.md 4.2): the route finds them too (withDeleted).
  'documents.history': (input, ctx, document) =>
    ctx.services.models.Document.history(document.id, { cursor: input.cursor, limit: HISTORY_PAGE }),
} satisfies DocumentsHandlers;
