/**
 * Handlers of the documents routes (docs/spec.md 2.6, 3 "Document row", 4.2;
 * docs/audit.md): the audit reference application. Writes go through the
 * tracked model `ctx.services.models.Document`, so each has its audit entry;
 * reads (show, export, history) use the database directly and are not logged.
 *
 * A document of another user is 404, like one that does not exist.
 */
import { randomBytes } from 'node:crypto';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Handlers } from '../../generated/handlers.js';
import type { Database } from '../../generated/types.js';
import { NotFoundError, ValidationError } from 'bindery/errors';
import { created, noContent } from 'bindery/results';
import { compiledQuery } from 'bindery/db';
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

/** `owner_id = <caller>`: the condition every write of a handler adds. */
const ownedBy = (owner: number) => (eb: ExpressionBuilder<Database, 'documents'>) => eb('owner_id', '=', owner);

const missing = (id: number) => new NotFoundError(`Document ${id} does not exist.`);

/** A live document of its owner: the API's hot read, compiled once (docs/database.md "Compiled queries"). */
const documentOf = compiledQuery((db, id: number, owner: number) =>
  (db as Kysely<Database>)
    .selectFrom('documents')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', owner)
    .where('deleted_at', 'is', null),
);

/** A duplicate live slug is a field error on `slug` (422); anything else is rethrown. */
function slugTaken(error: unknown): never {
  const e = error as { code?: string; constraint?: string };
  if (e?.code === '23505' && e.constraint === SLUG_INDEX) throw new ValidationError({ slug: 'The slug has already been taken.' });
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

  // The caller's documents only: the list's query, scoped to the owner.
  'documents.list': (input, ctx) => {
    const owner = callerId(ctx);
    return lists['documents.list'](ctx, input, (q) => q.where('owner_id', '=', owner));
  },

  'documents.export': async (_input, ctx) => {
    const owner = callerId(ctx);
    const documents = await ctx.services.db
      .selectFrom('documents')
      .selectAll()
      .where('owner_id', '=', owner)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute();
    await ctx.services.audit.record({
      action: 'documents.exported',
      subject: { type: 'users', id: owner },
      details: { documents: documents.length },
    });
    return documents;
  },

  'documents.archive': async (_input, ctx) => {
    const archived = await ctx.services.models.Document.query()
      .where('owner_id', '=', callerId(ctx))
      .where('status', '=', 'published')
      .update({ status: 'archived' });
    return { archived };
  },

  'documents.show': async (input, ctx) => {
    const [document] = await documentOf(ctx.services.db, input.id, callerId(ctx));
    if (!document) throw missing(input.id);
    return document;
  },

  'documents.update': async (input, ctx) => {
    const document = await ctx.services.models.Document.update(
      input.id,
      { title: input.title, body: input.body, status: input.status },
      { where: ownedBy(callerId(ctx)) },
    );
    if (!document) throw missing(input.id);
    return document;
  },

  'documents.delete': async (input, ctx) => {
    const document = await ctx.services.models.Document.delete(input.id, { where: ownedBy(callerId(ctx)) });
    if (!document) throw missing(input.id);
    return noContent();
  },

  'documents.restore': async (input, ctx) => {
    const document = await ctx.services.models.Document.restore(input.id, { where: ownedBy(callerId(ctx)) }).catch(slugTaken);
    if (!document) throw missing(input.id);
    return document;
  },

  'documents.history': async (input, ctx) => {
    // Deleted documents keep their history (docs/spec.md 4.2); another user's is 404.
    const document = await ctx.services.db
      .selectFrom('documents')
      .select('id')
      .where('id', '=', input.id)
      .where('owner_id', '=', callerId(ctx))
      .executeTakeFirst();
    if (!document) throw missing(input.id);
    return ctx.services.models.Document.history(input.id, { cursor: input.cursor, limit: HISTORY_PAGE });
  },
} satisfies DocumentsHandlers;
