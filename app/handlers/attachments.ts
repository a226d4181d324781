/**
 * Attachments of documents (docs/storage.md "The reference app"): files of
 * at most 50 MB, sent as multipart (streamed to the storage disk while the
 * request is read) or uploaded directly to the disk and then confirmed.
 * Only the document's owner may see or change them; another user's document
 * is 404, like one that does not exist. Rows are written through the
 * tracked model (the audit log records the file's metadata, never its
 * bytes), and a removed attachment's file is deleted once the removal commits.
 */
import type { Handlers } from '../../generated/handlers.js';
import type { Database } from '../../generated/types.js';
import type { Kysely } from 'kysely';
import { NotFoundError } from 'bindery/errors';
import { created, noContent } from 'bindery/results';
import { confirmDirectUpload, createDirectUpload, storageOf, withFiles } from 'bindery/storage';
import type { RequestContext } from 'bindery/http';
import { callerId } from './caller.js';

type AttachmentsHandlers = Pick<
  Handlers,
  'attachments.create' | 'attachments.list' | 'attachments.delete' | 'attachments.upload' | 'attachments.confirm'
>;

/** The largest attachment, bytes (the `max:51200` rule of schema/documents.yaml). */
export const ATTACHMENT_MAX_BYTES = 51_200 * 1024;

/** The purpose direct-upload tokens of attachments are made for (a token for another purpose is refused). */
const UPLOAD_PURPOSE = 'attachments.upload';

/**
 * The caller's live document `id`, or 404.
 * @throws {NotFoundError} for a document that does not exist, is deleted, or is another user's.
 */
async function ownDocument(ctx: RequestContext, db: Kysely<Database>, id: number): Promise<void> {
  const row = await db
    .selectFrom('documents')
    .select('id')
    .where('id', '=', id)
    .where('owner_id', '=', callerId(ctx))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (row === undefined) throw new NotFoundError(`Document ${id} does not exist.`);
}

export const attachmentsHandlers = {
  'attachments.create': async (input, ctx) => {
    const { db, models } = ctx.services;
    await ownDocument(ctx, db, input.id);
    const attachment = await withFiles(storageOf(ctx.services), db, async (trx, files) =>
      models.Attachment.using(trx).create({ document_id: input.id, file: await files.attach(input.file, 'file') }),
    );
    return created(attachment, { location: ctx.url('attachments.list', { id: input.id }) });
  },

  'attachments.list': async (input, ctx) => {
    const { db } = ctx.services;
    await ownDocument(ctx, db, input.id);
    return db.selectFrom('document_attachments').selectAll().where('document_id', '=', input.id).orderBy('id').execute();
  },

  'attachments.delete': async (input, ctx) => {
    const { db, models } = ctx.services;
    await ownDocument(ctx, db, input.id);
    await withFiles(storageOf(ctx.services), db, async (trx, files) => {
      const removed = await models.Attachment.using(trx).delete(input.attachment, { where: (eb) => eb('document_id', '=', input.id) });
      if (!removed) throw new NotFoundError(`Attachment ${input.attachment} of document ${input.id} does not exist.`);
      files.detach(removed.file);
    });
    return noContent();
  },

  'attachments.upload': async (input, ctx) => {
    await ownDocument(ctx, ctx.services.db, input.id);
    return created(await createDirectUpload(storageOf(ctx.services), { purpose: UPLOAD_PURPOSE, maxBytes: ATTACHMENT_MAX_BYTES }));
  },

  'attachments.confirm': async (input, ctx) => {
    const { db, models } = ctx.services;
    await ownDocument(ctx, db, input.id);
    const storage = storageOf(ctx.services);
    const upload = await confirmDirectUpload(storage, input.token, {
      purpose: UPLOAD_PURPOSE,
      field: 'token',
      ...(input.name ? { name: input.name } : {}),
    });
    const attachment = await withFiles(storage, db, async (trx, files) =>
      models.Attachment.using(trx).create({ document_id: input.id, file: await files.attach(upload, 'token') }),
    );
    return created(attachment, { location: ctx.url('attachments.list', { id: input.id }) });
  },
} satisfies AttachmentsHandlers;
