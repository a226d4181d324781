/**
 * The profile picture (docs/storage.md "The reference app"): `POST
 * /user/avatar` takes a png, jpeg or webp (by content) of at most 2 MB,
 * streamed to the storage disk while the request is read, and replaces the
 * user's picture; the old file is removed once the new reference is
 * committed. API clients get `{ avatar_url }` (a signed URL); a browser form
 * goes back to the dashboard.
 */
import type { Handlers } from '../../generated/handlers.js';
import { currentUser } from '../auth/users.js';
import { updateReturning } from 'bindery/db';
import { NotFoundError } from 'bindery/errors';
import { redirectToRoute } from 'bindery/results';
import { storageOf, withFiles } from 'bindery/storage';

type AvatarHandlers = Pick<Handlers, 'users.avatar'>;

export const avatarHandlers = {
  'users.avatar': async (input, ctx) => {
    const me = await currentUser(ctx);
    const storage = storageOf(ctx.services);
    const user = await withFiles(storage, ctx.services.db, async (trx, files) => {
      const old = await trx.selectFrom('users').select('avatar').where('id', '=', me.id).forUpdate().executeTakeFirstOrThrow();
      const avatar = await files.attach(input.avatar, 'avatar');
      files.detach(old.avatar);
      return updateReturning(trx, 'users', me.id, { avatar });
    });
    if (user === undefined) throw new NotFoundError('Your account no longer exists.');
    if (ctx.client.isBrowser && !ctx.client.wantsJson) {
      ctx.session.flash('status', ctx.t('app.flash.avatar_updated'));
      return redirectToRoute('accounts.dashboard');
    }
    return { avatar_url: await storage.url(user.avatar) };
  },
} satisfies AvatarHandlers;
