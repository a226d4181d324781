/**
 * Development-only caller identification for the documents API, until
 * accounts (bearer tokens) land: `X-Dev-User-Id: <user id>` names the caller.
 *
 * The middleware `dev-user` (the YAML group `documents`) reads the header,
 * records the caller for handlers (`app/handlers/caller.ts`) and sets the
 * request's signed-in user for audit attribution (SPEC 5.8: actor
 * `user:<id>`). It answers 401 without a valid header, and always in
 * production (`APP_ENV=production`), where the header would let anyone act
 * as anyone.
 *
 * Replacing it with accounts: in `schema/documents.yaml` change the group's
 * middleware `[dev-user]` to the token middleware, remove `devUser()` from
 * the setup list of `app/main.ts`, and make `callerId` read the signed-in
 * user.
 */
import type { SetupStep } from '../../runtime/app/index.js';
import type { Actor } from '../../runtime/context/execution-context.js';
import { HttpError } from '../../runtime/errors/index.js';
import type { RequestContext } from '../../runtime/http/context.js';
import { setCaller } from '../handlers/caller.js';

/** The header naming the caller (development and testing only). */
export const DEV_USER_HEADER = 'x-dev-user-id';

/** A request context whose signed-in user the middleware may set (runtime/http `HttpRequestContext`). */
type AttributableContext = RequestContext & { resolveUser?: () => Promise<Actor | null> };

/**
 * The setup step adding the `dev-user` middleware (it needs `APP_ENV`, hence a step).
 * @example setup: [devUser(), audit({ tracked })]
 */
export function devUser(): SetupStep {
  return {
    name: 'dev-user',
    call: 'devUser()',
    setup(ctx) {
      const production = ctx.settings.APP_ENV === 'production';
      ctx.addMiddleware('dev-user', async (rctx: AttributableContext, next) => {
        if (production) {
          throw new HttpError(401, 'The X-Dev-User-Id header is for development only and is refused in production; sign in with a bearer token.', { code: 'DEV_USER_REQUIRED' });
        }
        const raw = rctx.request.headers[DEV_USER_HEADER];
        const text = Array.isArray(raw) ? raw[0] : raw;
        if (text === undefined || !/^[1-9]\d{0,14}$/.test(text.trim())) {
          throw new HttpError(401, 'Send X-Dev-User-Id: <user id> (a positive integer) to name the caller; bearer tokens replace it when accounts land.', { code: 'DEV_USER_REQUIRED' });
        }
        const id = Number(text.trim());
        setCaller(rctx, id);
        const actor: Actor = { type: 'user', id: String(id) };
        rctx.resolveUser = async () => actor;
        return next();
      });
    },
  };
}
