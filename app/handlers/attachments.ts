/**
 * Attachments of documents (docs/storage.md "The reference app"): files of
 * at most 50 MB, sent as multipart (streamed to the storage disk while the
 * request is read) or uploaded directly to the disk and then confirmed.
 * Only the document's owner may see or change them: the routes are
 * authorized by the policy documents (view to list, update to change;
 * schema/documents.yaml), so another user's document is 404, like one that
 * does not exist, and each handler gets the document. Rows are written through the
 * tracked model (the audit log records the file's metadata, never its
 * bytes), and a removed attachment's file is deleted once the removal commits.
 * A direct upload's token is bound to the user who started it and to its
 * document: another user, or another document, cannot confirm it.
 */
import type { Handlers } from '../../generated/handlers.js';
import { NotFoundError } from 'bindery/errors';
import { created, keysetBatches, noContent, stream } from 'bindery/results';
import { confirmDirectUpload, createDirectUpload, storageOf, withFiles } from 'bindery/storage';

type AttachmentsHandlers = Pick<
  Handlers,
  'attachments.create' | 'attachments.list' | 'attachments.delete' | 'attachments.upload' | 'attachments.confirm'
>;

/** The largest attachment, bytes (the `max:51200` rule of schema/documents.yaml). */
export const ATTACHMENT_MAX_BYTES = 51_200 * 1024;

/** The purpose direct-upload tokens of attachments are made for (a token for another purpose is refused). */
const UPLOAD_PURPOSE = 'attachments.upload';

/**
 * The record a direct upload is bound to: the document it was started for.
 * With the owner (the signed-in user), the token is confirmed by that user
 * onto that document only; anything else is 403 (docs/storage.md "Direct uploads").
 */
const uploadTarget = (documentId: number | string) => `documents/${documentId}`;

export const attachmentsHandlers = {
  'attachments.create': async (input, ctx, document) => {
    const { db, models } = ctx.services;
    const attachment = await withFiles(storageOf(ctx.services), db, async (trx, files) =>
      models.Attachment.using(trx).create({ document_id: document.id, file: await files.attach(input.file, 'file') }),
    );
    return created(attachment, { location: ctx.url('attachments.list', { id: document.id }) });
  },

  'attachments.list': (_input, ctx, document) =>
    stream(
      keysetBatches(ctx.services.db.selectFrom('document_attachments').selectAll().where('document_id', '=', document.id), { key: 'id' }),
    ),

  'attachments.delete': async (input, ctx, document) => {
    const { db, models } = ctx.services;
    await withFiles(storageOf(ctx.services), db, async (trx, files) => {
      const removed = await models.Attachment.using(trx).delete(input.attachment, { where: (eb) => eb('document_id', '=', document.id) });
      if (!removed) throw new NotFoundError(`Attachment ${input.attachment} of document ${document.id} does not exist.`);
      files.detach(removed.file);
    });
    return noContent();
  },

  'attachments.upload': async (_input, ctx, document) =>
    created(
      await createDirectUpload(storageOf(ctx.services), {
        purpose: UPLOAD_PURPOSE,
        owner: ctx.auth.id,
        target: uploadTarget(document.id),
        maxBytes: ATTACHMENT_MAX_BYTES,
      }),
    ),

  'attachments.confirm': async (input, ctx, document) => {
    const { db, models } = ctx.services;
    const storage = storageOf(ctx.services);
    const upload = await confirmDirectUpload(storage, input.token, {
      purpose: UPLOAD_PURPOSE,
      owner: ctx.auth.id,
      target: uploadTarget(document.id),
      field: 'token',
      ...(input.name ? { name: input.name } : {}),
    });
    const attachment = await withFiles(storage, db, async (trx, files) =>
      models.Attachment.using(trx).create({ document_id: document.id, file: await files.attach(upload, 'token') }),
    );
    return created(attachment, { location: ctx.url('attachments.list', { id: document.id }) });
  },
} satisfies AttachmentsHandlers;
